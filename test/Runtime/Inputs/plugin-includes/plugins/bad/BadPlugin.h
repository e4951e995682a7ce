// a header of the plugin itself

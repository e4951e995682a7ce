/*===- liboffload22-saxpy.c - A liboffload 22 program on the drop-in ------===*\
|*                                                                            *|
|* Part of the offload project, under the Apache License v2.0 with LLVM       *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * A C program written against LLVM 22's own <offload/OffloadAPI.h> (Debian's
 * liboffload-22-dev) and nothing of this project, linked with
 * -lLLVMOffload against the drop-in library (lib/Liboffload22). On the host
 * device it: finds the device by iterating and by its platform's backend
 * (OL_PLATFORM_BACKEND_HOST, 4 in liboffload 22), allocates device memory,
 * fills one buffer, copies the other in, creates a queue and an event, loads
 * the host program given as argv[1] (an ELF object the offload pipeline made
 * for #offload.host), launches its `saxpy` kernel (y = a * x + y over memref
 * descriptors), copies the result back and checks every element; then it
 * checks liboffload 22's error codes for a bad enumerator, a null handle and
 * a kernel name not in the program. Prints "liboffload22-saxpy: ok" and exits
 * 0 when every check holds.
 */

/* LLVM 22's header uses bool without including <stdbool.h> (it is written
 * for C++ first): C programs before C23 include it first. */
#include <stdbool.h>

#include <offload/OffloadAPI.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

/* Evaluates a call; a failure prints its code and message. */
#define CHECK_OK(Call)                                                         \
  do {                                                                         \
    ol_result_t R_ = (Call);                                                   \
    if (R_ != OL_SUCCESS) {                                                    \
      fprintf(stderr, "liboffload22-saxpy: %s:%d: %s: error %d: %s\n",         \
              __FILE__, __LINE__, #Call, (int)R_->Code,                        \
              R_->Details ? R_->Details : "");                                 \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#define EXPECT(Cond, ...)                                                      \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      fprintf(stderr, "liboffload22-saxpy: %s:%d: ", __FILE__, __LINE__);      \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* The first device whose platform's backend is UserData's. */
typedef struct {
  ol_platform_backend_t Backend;
  ol_device_handle_t Device;
  int Seen;
} Search;

static bool findDevice(ol_device_handle_t Device, void *UserData) {
  Search *S = (Search *)UserData;
  ++S->Seen;
  ol_platform_handle_t Platform;
  if (olGetDeviceInfo(Device, OL_DEVICE_INFO_PLATFORM, sizeof(Platform),
                      &Platform) != OL_SUCCESS)
    return true;
  ol_platform_backend_t Backend;
  if (olGetPlatformInfo(Platform, OL_PLATFORM_INFO_BACKEND, sizeof(Backend),
                        &Backend) != OL_SUCCESS)
    return true;
  if (Backend != S->Backend)
    return true;
  S->Device = Device;
  return false;
}

static char *readFile(const char *Path, size_t *Size) {
  FILE *F = fopen(Path, "rb");
  if (!F) {
    perror(Path);
    exit(1);
  }
  fseek(F, 0, SEEK_END);
  long N = ftell(F);
  fseek(F, 0, SEEK_SET);
  char *Data = malloc((size_t)N);
  if (fread(Data, 1, (size_t)N, F) != (size_t)N) {
    perror(Path);
    exit(1);
  }
  fclose(F);
  *Size = (size_t)N;
  return Data;
}

/* A 1-D memref descriptor, as a gpu.func kernel argument. */
typedef struct {
  float *Allocated, *Aligned;
  int64_t Offset, Size, Stride;
} MemRef1D;

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: liboffload22-saxpy <host program (ELF object)>\n");
    return 2;
  }
  CHECK_OK(olInit());

  Search S = {OL_PLATFORM_BACKEND_HOST, NULL, 0};
  CHECK_OK(olIterateDevices(findDevice, &S));
  EXPECT(S.Device != NULL,
         "no device of backend OL_PLATFORM_BACKEND_HOST "
         "among %d devices",
         S.Seen);
  if (!S.Device)
    return 1;
  ol_device_handle_t Device = S.Device;

  ol_device_type_t Type;
  CHECK_OK(olGetDeviceInfo(Device, OL_DEVICE_INFO_TYPE, sizeof(Type), &Type));
  EXPECT(Type == OL_DEVICE_TYPE_HOST, "device type %d, expected HOST (%d)",
         (int)Type, (int)OL_DEVICE_TYPE_HOST);
  size_t NameSize = 0;
  CHECK_OK(olGetDeviceInfoSize(Device, OL_DEVICE_INFO_NAME, &NameSize));
  EXPECT(NameSize > 1, "empty device name");

  enum { N = 1000, BlockSize = 128 };
  const float A = 2.0f;
  float Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = (float)I;

  float *X, *Y;
  CHECK_OK(
      olMemAlloc(Device, OL_ALLOC_TYPE_DEVICE, N * sizeof(float), (void **)&X));
  CHECK_OK(
      olMemAlloc(Device, OL_ALLOC_TYPE_DEVICE, N * sizeof(float), (void **)&Y));
  size_t Reported = 0;
  CHECK_OK(olGetMemInfo(X, OL_MEM_INFO_SIZE, sizeof(Reported), &Reported));
  EXPECT(Reported == N * sizeof(float), "olGetMemInfo SIZE %zu, expected %zu",
         Reported, (size_t)(N * sizeof(float)));

  ol_queue_handle_t Queue;
  CHECK_OK(olCreateQueue(Device, &Queue));
  const float One = 1.0f;
  CHECK_OK(olMemFill(Queue, Y, sizeof(One), &One, N * sizeof(float)));
  /* Host memory belongs to the host device, the one of backend HOST. */
  CHECK_OK(olMemcpy(Queue, X, Device, Host, Device, N * sizeof(float)));

  size_t ImageSize;
  char *Image = readFile(argv[1], &ImageSize);
  bool Valid = false;
  CHECK_OK(olIsValidBinary(Device, Image, ImageSize, &Valid));
  EXPECT(Valid, "olIsValidBinary: the host program is not valid");
  ol_program_handle_t Program;
  CHECK_OK(olCreateProgram(Device, Image, ImageSize, &Program));
  ol_symbol_handle_t Kernel;
  CHECK_OK(olGetSymbol(Program, "saxpy", OL_SYMBOL_KIND_KERNEL, &Kernel));
  ol_symbol_kind_t Kind;
  CHECK_OK(olGetSymbolInfo(Kernel, OL_SYMBOL_INFO_KIND, sizeof(Kind), &Kind));
  EXPECT(Kind == OL_SYMBOL_KIND_KERNEL, "symbol kind %d", (int)Kind);

  /* saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>), packed with C's
   * alignment: a at 0, the descriptors from 8. */
  struct {
    float A;
    MemRef1D X, Y;
  } Args = {A, {X, X, 0, N, 1}, {Y, Y, 0, N, 1}};
  ol_kernel_launch_size_args_t Size;
  memset(&Size, 0, sizeof(Size));
  Size.Dimensions = 1;
  Size.NumGroups.x = (N + BlockSize - 1) / BlockSize;
  Size.NumGroups.y = Size.NumGroups.z = 1;
  Size.GroupSize.x = BlockSize;
  Size.GroupSize.y = Size.GroupSize.z = 1;
  Size.DynSharedMemory = 0;
  CHECK_OK(olLaunchKernel(Queue, Device, Kernel, &Args, sizeof(Args), &Size));

  ol_event_handle_t Event;
  CHECK_OK(olCreateEvent(Queue, &Event));
  float Result[N];
  CHECK_OK(olWaitEvents(Queue, &Event, 1));
  CHECK_OK(olMemcpy(Queue, Result, Device, Y, Device, N * sizeof(float)));
  CHECK_OK(olSyncEvent(Event));
  CHECK_OK(olSyncQueue(Queue));
  bool Complete = false;
  CHECK_OK(olGetEventInfo(Event, OL_EVENT_INFO_IS_COMPLETE, sizeof(Complete),
                          &Complete));
  EXPECT(Complete, "event not complete after olSyncQueue");

  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    if (Result[I] != A * (float)I + 1.0f && Wrong++ < 5)
      fprintf(stderr, "liboffload22-saxpy: y[%d] = %g, expected %g\n", I,
              (double)Result[I], (double)(A * (float)I + 1.0f));
  EXPECT(Wrong == 0, "%d of %d results wrong", Wrong, N);

  /* liboffload 22's error codes. */
  ol_result_t R = olGetDeviceInfo(Device, (ol_device_info_t)OL_DEVICE_INFO_LAST,
                                  sizeof(Type), &Type);
  EXPECT(R != OL_SUCCESS && R->Code == OL_ERRC_INVALID_ENUMERATION,
         "OL_DEVICE_INFO_LAST: expected OL_ERRC_INVALID_ENUMERATION, got %d",
         R ? (int)R->Code : 0);
  R = olCreateQueue(NULL, &Queue);
  EXPECT(R != OL_SUCCESS && R->Code == OL_ERRC_INVALID_NULL_HANDLE,
         "olCreateQueue(NULL): expected OL_ERRC_INVALID_NULL_HANDLE, got %d",
         R ? (int)R->Code : 0);
  ol_symbol_handle_t Missing;
  R = olGetSymbol(Program, "no_such_kernel", OL_SYMBOL_KIND_KERNEL, &Missing);
  EXPECT(R != OL_SUCCESS && R->Code == OL_ERRC_NOT_FOUND && R->Details &&
             strstr(R->Details, "no_such_kernel"),
         "a missing kernel: expected OL_ERRC_NOT_FOUND naming it, got %d (%s)",
         R ? (int)R->Code : 0, R && R->Details ? R->Details : "");

  CHECK_OK(olDestroyEvent(Event));
  CHECK_OK(olDestroyQueue(Queue));
  CHECK_OK(olDestroyProgram(Program));
  CHECK_OK(olMemFree(X));
  CHECK_OK(olMemFree(Y));
  CHECK_OK(olShutDown());
  free(Image);
  if (failures)
    return 1;
  printf("liboffload22-saxpy: ok (%d results on device type %d)\n", N,
         (int)Type);
  return 0;
}

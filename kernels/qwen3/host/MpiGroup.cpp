#include "qwen3/host/MpiGroup.h"

// The C interface only (Open MPI and MPICH otherwise pull in their deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace rngd::qwen3 {

namespace {

bool finished = false;

void abortUnlessFinished() {
  if (!finished)
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int count(size_t bytes) {
  if (bytes > size_t(INT_MAX))
    throw std::runtime_error("an MPI message of " + std::to_string(bytes) +
                             " bytes exceeds MPI's int count");
  return int(bytes);
}

void check(int status, const char *what) {
  if (status != MPI_SUCCESS)
    throw std::runtime_error(std::string("MPI ") + what + " failed (error " +
                             std::to_string(status) + ")");
}

} // namespace

MpiGroup::MpiGroup(int *argc, char ***argv) {
  check(MPI_Init(argc, argv), "MPI_Init");
  std::atexit(abortUnlessFinished);
  // Errors return codes (checked above) instead of aborting inside MPI without a message.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

void MpiGroup::finish() {
  finished = true;
  MPI_Finalize();
}

void MpiGroup::abort(int code) {
  finished = true;
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

void MpiGroup::broadcast(void *data, size_t bytes, int root) {
  check(MPI_Bcast(data, count(bytes), MPI_BYTE, root, MPI_COMM_WORLD), "broadcast");
}

void MpiGroup::allGather(const void *mine, size_t bytes, void *all) {
  check(MPI_Allgather(mine, count(bytes), MPI_BYTE, all, count(bytes), MPI_BYTE, MPI_COMM_WORLD),
        "all-gather");
}

void MpiGroup::gather(const void *mine, size_t bytes, void *all) {
  check(MPI_Gather(mine, count(bytes), MPI_BYTE, all, count(bytes), MPI_BYTE, 0, MPI_COMM_WORLD),
        "gather");
}

} // namespace rngd::qwen3

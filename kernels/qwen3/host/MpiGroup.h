// The ranks of an `mpirun` as a Collective (Collective.h): one simulated chip each. Only the
// rngd-qwen3 tool links MPI; the host library sees the interface.
#pragma once

#include "qwen3/host/Collective.h"

namespace rngd::qwen3 {

class MpiGroup : public Collective {
public:
  /// MPI_Init. From then on a process that exits before finish() (an error, exit(1)) aborts
  /// every rank of the job with MPI_Abort, so none waits for it forever.
  MpiGroup(int *argc, char ***argv);
  /// MPI_Finalize: the run ended well on this rank.
  void finish();
  /// Ends every rank of the job with `code`.
  [[noreturn]] void abort(int code);

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void broadcast(void *data, size_t bytes, int root) override;
  void allGather(const void *mine, size_t bytes, void *all) override;
  void gather(const void *mine, size_t bytes, void *all) override;

private:
  int rank_ = 0, size_ = 1;
};

} // namespace rngd::qwen3

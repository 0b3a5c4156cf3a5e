// Proved queries by content: the digests of Z3 queries already found
// unsatisfiable, so that a run may take "unsat" for a query it has the digest
// of instead of solving it again.
//
// The key is the query itself (SHA-256 of the solver's assertions as SMT-LIB
// text), not the rule's name or address: any change to a rule, its
// constraints, the PTX or AMD semantics or the proof's case split changes the
// query, which is then solved. An unsatisfiable formula stays unsatisfiable
// whichever solver or version is asked, so a digest recorded once holds for
// good. Only "unsat" is ever taken from the digests: a query that is not in
// them is solved, and a counterexample always comes from Z3.
//
// Used by the test suite (tests/rules_test.cpp reads the committed
// proof/proved_queries.txt); `ptx2amdgpu rules --verify` solves every query
// unless --proved-queries names a file, and --write-proved-queries records
// them (docs/architecture.md).
#pragma once

#include <z3++.h>

#include <cstddef>
#include <string>

namespace p2a::verify {

// Adds the digests listed in `path` (one hex digest per line; '#' starts a
// comment). From then on checkQuery answers "unsat" for those queries
// without solving them. False with `error` set if the file cannot be read or
// a line is not a digest.
bool loadProvedQueries(const std::string &path, std::string &error);

// From now on, keep the digest of every query found unsatisfiable (solved or
// loaded), for writeProvedQueries.
void recordProvedQueries();

// Writes the recorded digests, sorted, one per line, through a temporary file
// renamed into place. False with `error` set on failure.
bool writeProvedQueries(const std::string &path, std::string &error);

struct ProvedQueryCounts {
  size_t solved = 0; // queries given to Z3
  size_t found = 0;  // queries answered from the loaded digests
};
ProvedQueryCounts provedQueryCounts();

// Every proof query goes through here: Z3's answer, or "unsat" where the
// query's digest was loaded. Without loaded digests or recording, exactly
// s.check().
z3::check_result checkQuery(z3::solver &s);

} // namespace p2a::verify

package stacks

import "tenger/internal/store/keyspace"

// engineGrantee is the engine task's name in the key space declarations.
const engineGrantee = keyspace.EngineTask

// keySpaceOf is the declared key space of a function or the engine task
// (internal/store/keyspace), which GrantItems turns into the grantee's
// statements on the table. Every grantee the stacks build is declared
// (keyspace_test.go), so an undeclared name is a programming error and
// panics at synthesis.
func keySpaceOf(name string) keyspace.Grant { return keyspace.MustOf(name) }

//go:build race

package embedded

// raceOn: the race detector instruments allocations, so allocation counts
// are checked only without it (the plain test run).
const raceOn = true

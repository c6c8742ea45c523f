//go:build !race

package embedded

// raceOn: see race_on_test.go.
const raceOn = false

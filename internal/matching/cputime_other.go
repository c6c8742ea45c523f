//go:build !linux

package matching

// ThreadCPU is not available here; benchmarks then report wall time only.
func ThreadCPU() float64 { return 0 }

//go:build !linux

package matching

// threadCPU is not available here; benchmarks then report wall time only.
func threadCPU() float64 { return 0 }

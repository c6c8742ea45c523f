package matching

import "syscall"

// ThreadCPU returns the CPU time (user + system), in seconds, consumed by
// the calling OS thread. Benchmarks lock their goroutine to its thread and divide work by
// this rather than only by wall time, because the shared build machine is
// usually oversubscribed and wall time then mostly measures other processes.
func ThreadCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

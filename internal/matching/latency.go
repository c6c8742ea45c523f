package matching

import (
	"math/bits"
	_ "unsafe" // for go:linkname
)

// Nanotime returns the runtime's monotonic clock in nanoseconds. It is the
// cheapest clock available to Go code (no time.Time construction, a vDSO
// read of the TSC on Linux), which matters when timing every command of a
// benchmark.
//
//go:linkname Nanotime runtime.nanotime
func Nanotime() int64

// histSubBits sets the histogram's resolution: 2^histSubBits buckets per
// power of two, i.e. a relative error below 1/32.
const histSubBits = 5

// LatencyHistogram is a fixed-size log-linear histogram of nanosecond
// durations (HDR style). Record does not allocate; the zero value is ready.
type LatencyHistogram struct {
	counts [64 << histSubBits]uint64
	total  uint64
	max    uint64
}

func histBucket(v uint64) int {
	if v < 2<<histSubBits {
		return int(v)
	}
	e := bits.Len64(v) - (histSubBits + 1)
	return e<<histSubBits + int(v>>uint(e))
}

// histUpper returns the largest value that falls in bucket i.
func histUpper(i int) uint64 {
	if i < 2<<histSubBits {
		return uint64(i)
	}
	e := i>>histSubBits - 1
	top := uint64(i - e<<histSubBits)
	return (top+1)<<uint(e) - 1
}

// Record adds one duration.
func (h *LatencyHistogram) Record(ns int64) {
	if ns < 0 {
		ns = 0
	}
	v := uint64(ns)
	h.counts[histBucket(v)]++
	h.total++
	if v > h.max {
		h.max = v
	}
}

// Merge adds every duration another histogram recorded.
func (h *LatencyHistogram) Merge(o *LatencyHistogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.total += o.total
	h.max = max(h.max, o.max)
}

// Count returns the number of recorded durations.
func (h *LatencyHistogram) Count() uint64 { return h.total }

// Max returns the largest recorded duration.
func (h *LatencyHistogram) Max() int64 { return int64(h.max) }

// Quantile returns an upper bound of the q-quantile (0 < q <= 1), exact to
// the bucket resolution.
func (h *LatencyHistogram) Quantile(q float64) int64 {
	if h.total == 0 {
		return 0
	}
	target := uint64(q * float64(h.total))
	if target == 0 {
		target = 1
	}
	var cum uint64
	for i, c := range h.counts {
		cum += c
		if cum >= target {
			u := histUpper(i)
			if u > h.max {
				u = h.max
			}
			return int64(u)
		}
	}
	return int64(h.max)
}

// Reset clears the histogram.
func (h *LatencyHistogram) Reset() { *h = LatencyHistogram{} }

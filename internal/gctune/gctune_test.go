package gctune

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestApplySetsTargetAndLimit(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	oldPct := debug.SetGCPercent(100)
	oldLim := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(oldPct); debug.SetMemoryLimit(oldLim) })

	s := Apply()
	if s.Percent != Percent {
		t.Fatalf("percent %d, want %d", s.Percent, Percent)
	}
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Fatalf("runtime GC percent %d after Apply, want %d", got, Percent)
	}
	if s.Limit <= 0 {
		t.Fatalf("no memory limit chosen on a machine with %d bytes", availableMemory())
	}
	if got := debug.SetMemoryLimit(-1); got != s.Limit {
		t.Fatalf("runtime memory limit %d, want %d", got, s.Limit)
	}
	if s.Limit > availableMemory() {
		t.Fatalf("limit %d above the memory %d", s.Limit, availableMemory())
	}
}

func TestOperatorEnvironmentWins(t *testing.T) {
	t.Setenv("GOGC", "off")
	t.Setenv("GOMEMLIMIT", "1GiB")
	oldPct := debug.SetGCPercent(123)
	oldLim := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(oldPct); debug.SetMemoryLimit(oldLim) })

	s := Apply()
	if s.Percent != -1 || s.Limit != 0 {
		t.Fatalf("Apply chose %+v, want the environment's GOGC=off and no limit of its own", s)
	}
	if got := debug.SetGCPercent(123); got != 123 {
		t.Fatalf("Apply changed the GC percent to %d although GOGC is set", got)
	}
}

func TestMemTotal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "meminfo")
	if err := os.WriteFile(p, []byte("MemFree:  100 kB\nMemTotal:       24684140 kB\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, want := memTotal(p), int64(24684140)*1024; got != want {
		t.Fatalf("memTotal %d, want %d", got, want)
	}
	if got := memTotal(filepath.Join(t.TempDir(), "missing")); got != 0 {
		t.Fatalf("missing file gave %d", got)
	}
}

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// The ceiling of `tenger bench`: the same client, connections and order
// calls against a server that only answers them (Go's HTTP server, as in
// `tenger serve`, with a fixed success envelope), in its own process as
// the real server is. No exchange can accept orders on this machine
// faster than this through this load generator; the ratio of the two runs
// shows how much of the machine the exchange's own work takes.

// noopAnswer is what the no-op server answers to every call.
var noopAnswer = []byte(`{"code":"0","msg":"suc","data":{"order_id":"1"}}` + "\n")

// runNoopServer serves the no-op endpoint on addr (port 0 picks one), prints
// the address it listens on as its first line of output, and serves until
// it is killed.
func runNoopServer(addr string, out io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, ln.Addr().String())
	return newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(noopAnswer)
	})).Serve(ln)
}

// ceilingReport is a ceiling run: the send figures, and the no-op server's
// CPU time over the run (zero where /proc cannot tell).
type ceilingReport struct {
	benchReport
	ServerCPU time.Duration
}

func (r ceilingReport) print(w io.Writer) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(w, "ceiling: %d order calls answered by a no-op server, %d refused\n", r.Accepted, r.Rejected)
	fmt.Fprintf(w, "answered:            %8.0f calls/s  (all answered in %s)\n", r.AcceptedPerSec(), r.SendTime.Round(time.Millisecond))
	fmt.Fprintf(w, "latency: p50 %s, p99 %s, p99.9 %s, max %s\n", ms(r.P50), ms(r.P99), ms(r.P999), ms(r.Max))
	if r.ServerCPU > 0 && r.Accepted > 0 {
		fmt.Fprintf(w, "no-op server CPU: %.1f µs per call\n", float64(r.ServerCPU.Microseconds())/float64(r.Accepted))
	}
}

// benchCeiling starts exe (a tenger binary) as the no-op server and sends
// f.orders order calls to it over f.concurrency connections.
func benchCeiling(ctx context.Context, exe string, f benchFlags) (ceilingReport, error) {
	cmd := exec.CommandContext(ctx, exe, "bench", "--noop-server", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return ceilingReport{}, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return ceilingReport{}, fmt.Errorf("bench: no-op server: %w", err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return ceilingReport{}, fmt.Errorf("bench: no-op server did not start: %w", err)
	}
	body := []byte(fmt.Sprintf(`{"symbol":%q,"side":"BUY","type":"LIMIT","price":%q,"volume":%q}`, f.symbol, f.price, f.qty))
	const token = "ceiling-run-token-of-the-length-of-a-session-token"
	cpu0, _ := processCPU(cmd.Process.Pid)
	rep, firstErr := sendOrders(ctx, "http://"+strings.TrimSpace(addr), f.orders, f.concurrency, func(int) (string, []byte) { return token, body })
	cpu1, ok := processCPU(cmd.Process.Pid)
	out := ceilingReport{benchReport: rep}
	if ok {
		out.ServerCPU = cpu1 - cpu0
	}
	return out, firstErr
}

// processCPU is a process's user and system CPU time from /proc (Linux;
// ok is false elsewhere). The kernel counts it in clock ticks of 1/100 s.
func processCPU(pid int) (d time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) may hold spaces; fields are counted after
	// its closing parenthesis: utime and stime are fields 14 and 15.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}

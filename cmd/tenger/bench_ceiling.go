package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"tenger/internal/push"
	"tenger/internal/push/hub"
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
// it is killed. With transport "ws" it serves /ws with tenger serve's
// WebSocket hub (internal/push/hub: frames parsed, each request on its own
// goroutine, answers through the connection's writer), signing in any
// token and answering every request frame with a fixed success that echoes
// its id: the WebSocket transport's own cost, without the exchange's.
func runNoopServer(addr, transport string, out io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, ln.Addr().String())
	if transport == "ws" {
		return newHTTPServer(noopWSHub()).Serve(ln)
	}
	return newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(noopAnswer)
	})).Serve(ln)
}

// noopWSHub is the no-op WebSocket server's hub.
func noopWSHub() *hub.Hub {
	return hub.New(hub.Options{
		PingInterval: 30 * time.Second,
		Auth: func(context.Context, string) (string, string, bool) {
			return "ceiling", "ceiling", true
		},
		Requests: func(_ context.Context, r push.Request) []byte {
			id := r.ID
			if len(id) == 0 {
				id = json.RawMessage("null")
			}
			b := make([]byte, 0, len(noopWSAnswerHead)+len(id)+len(noopWSAnswerTail))
			b = append(b, noopWSAnswerHead...)
			b = append(b, id...)
			return append(b, noopWSAnswerTail...)
		},
	})
}

// The no-op WebSocket answer, around the request's id.
var (
	noopWSAnswerHead = []byte(`{"id":`)
	noopWSAnswerTail = []byte(`,"status":200,"code":"0","msg":"success","data":{"order_id":"1"}}`)
)

// ceilingReport is a ceiling run: the send figures, and the no-op server's
// CPU time over the run (zero where /proc cannot tell).
type ceilingReport struct {
	benchReport
	ServerCPU time.Duration
}

func (r ceilingReport) print(w io.Writer) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	if r.Transport == "ws" {
		fmt.Fprintf(w, "ceiling: %d order.place requests answered by a no-op WebSocket server (tenger serve's hub), %d refused; %d connections, up to %d in flight on each\n",
			r.Accepted, r.Rejected, r.Concurrency, r.Inflight)
	} else {
		fmt.Fprintf(w, "ceiling: %d order calls answered by a no-op server, %d refused\n", r.Accepted, r.Rejected)
	}
	fmt.Fprintf(w, "answered:            %8.0f calls/s  (all answered in %s)\n", r.AcceptedPerSec(), r.SendTime.Round(time.Millisecond))
	fmt.Fprintf(w, "latency: p50 %s, p99 %s, p99.9 %s, max %s\n", ms(r.P50), ms(r.P99), ms(r.P999), ms(r.Max))
	if r.Rate > 0 {
		fmt.Fprintf(w, "offered:             %8.0f calls/s  (open loop at --rate %g)\n", r.Offered, r.Rate)
	}
	if r.ServerCPU > 0 && r.Accepted > 0 {
		what := "call"
		if r.Transport == "ws" {
			what = "request (one frame in, one answer out)"
		}
		fmt.Fprintf(w, "no-op server CPU: %.1f µs per %s\n", float64(r.ServerCPU.Microseconds())/float64(r.Accepted), what)
	}
	if r.BenchCPU > 0 && r.Accepted > 0 {
		fmt.Fprintf(w, "load generator CPU: %.1f µs per call\n", float64(r.BenchCPU.Microseconds())/float64(r.Accepted))
	}
}

// jsonFields is the ceiling run as --json prints it.
func (r ceilingReport) jsonFields() map[string]any {
	ms := func(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }
	round := func(x float64) float64 { return math.Round(x*10) / 10 }
	m := map[string]any{
		"ceiling": true, "transport": r.Transport, "rate": r.Rate, "orders": r.Sent, "concurrency": r.Concurrency,
		"accepted": r.Accepted, "rejected": r.Rejected,
		"offered_per_s": round(r.Offered), "accepted_per_s": round(r.AcceptedPerSec()),
		"ack_p50_ms": ms(r.P50), "ack_p99_ms": ms(r.P99), "ack_p999_ms": ms(r.P999), "ack_max_ms": ms(r.Max),
		"server_cpu_us_per_call": nil, "bench_cpu_us_per_call": round(r.perOrder(r.BenchCPU)),
	}
	if r.Transport == "ws" {
		m["inflight"] = r.Inflight
	}
	if r.ServerCPU > 0 {
		m["server_cpu_us_per_call"] = round(r.perOrder(r.ServerCPU))
	}
	return m
}

// benchCeiling starts exe (a tenger binary) as the no-op server of
// f.transport and sends f.orders order calls to it over f.concurrency
// connections.
func benchCeiling(ctx context.Context, exe string, f benchFlags) (ceilingReport, error) {
	if f.transport == "" {
		f.transport = "http"
	}
	if f.inflight <= 0 {
		f.inflight = defaultInflight
	}
	cmd := exec.CommandContext(ctx, exe, "bench", "--noop-server", "127.0.0.1:0", "--transport", f.transport)
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
	plan := loadPlan{base: "http://" + strings.TrimSpace(addr), n: f.orders, conc: f.concurrency, rate: f.rate, inflight: f.inflight}
	cpu0, _ := processCPU(cmd.Process.Pid)
	self0, _ := processCPU(os.Getpid())
	var rep benchReport
	var firstErr error
	if f.transport == "ws" {
		rep, _, firstErr = sendOrdersWS(ctx, plan, func(int) string { return token }, func(int) []byte { return body })
	} else {
		rep, _, firstErr = sendOrders(ctx, plan, func(int) (string, []byte) { return token, body })
	}
	cpu1, ok := processCPU(cmd.Process.Pid)
	self1, _ := processCPU(os.Getpid())
	rep.Transport, rep.Rate, rep.Concurrency = f.transport, f.rate, f.concurrency
	if f.transport == "ws" {
		rep.Inflight = f.inflight
	}
	rep.BenchCPU = self1 - self0
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

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The WebSocket transports of `tenger bench`: each connection places the
// orders of one trader as order.place requests
// {"id":i,"method":"order.place","params":<the order>}, matching the
// answers to them by id, with up to plan.inflight requests in flight (the
// server answers them as they finish, in any order). A connection places
// orders for its one trader, so connections alternate buyers and sellers:
// even connections place the run's buys (orders 0, 2, 4 ...), odd ones its
// sells, each side taking its next order from a shared counter, and every
// buy still meets a sell at the same price. What differs between the two
// WebSocket APIs (where a connection goes, how it signs in, how the
// answers read) is its wsDialect: ws is the web app's /ws socket, signed
// in with an auth frame; binance-ws is Binance's WebSocket API, each
// request signed with the trader's API key (bench_binance.go).

// defaultInflight is --inflight's default.
const defaultInflight = 32

// wsReq are the fixed parts of a request frame around its id and params.
var (
	wsReqHead = []byte(`{"id":`)
	wsReqMid  = []byte(`,"method":"order.place","params":`)
	wsReqTail = []byte(`}`)
)

// wsDialect is what differs between the WebSocket APIs the load loop
// places orders on.
type wsDialect struct {
	// path is the handshake's request target.
	path string
	// signIn, when not nil, runs on a new connection before its requests.
	signIn func(c *wsClient, token string, timeout time.Duration) error
	// parse reads an answer frame: its request's id, the refusal's code
	// ("0": accepted) and the placed order's id; ok is false for any other
	// message.
	parse func(msg []byte) (id int, code, orderID string, ok bool)
	// refusal is the message of a refused order's answer.
	refusal func(msg []byte) string
	// fatal tells a message after which no answer will come: the answer
	// to a request the server could not read or does not serve.
	fatal func(msg []byte) bool
}

// webWS is the web app's /ws: signed in with an auth frame, answered
// {"id":n,"status":200,"code":"0",...,"data":{"order_id":"x"}}.
var webWS = &wsDialect{
	path:   "/ws",
	signIn: signInWS,
	parse:  parseWSAnswer,
	refusal: func(msg []byte) string {
		var a struct{ Msg string }
		_ = json.Unmarshal(msg, &a)
		return a.Msg
	},
	fatal: func(msg []byte) bool { return bytes.HasPrefix(msg, wsErrorReply) },
}

// wsTrader is what one connection places its orders as: the trader's
// session token (its sign-in, where the dialect has one, and the reads
// of the settlement samples) and the params of its next request, appended
// to scratch (a fixed body may be returned as it is).
type wsTrader struct {
	token  string
	params func(scratch []byte) []byte
}

// fixedParams are params that are the same in every request.
func fixedParams(body []byte) func([]byte) []byte { return func([]byte) []byte { return body } }

// sendOrdersWS sends p.n order.place requests over p.conc /ws sockets;
// connection c signs in with tokenOf(c) and places body(c).
func sendOrdersWS(ctx context.Context, p loadPlan, tokenOf func(conn int) string, body func(conn int) []byte) (benchReport, lagSample, error) {
	return sendWS(ctx, p, webWS, func(c int) wsTrader { return wsTrader{token: tokenOf(c), params: fixedParams(body(c))} })
}

// sendWS sends p.n order.place requests over p.conc WebSockets of dialect
// d; connection c places the orders of traderOf(c).
func sendWS(ctx context.Context, p loadPlan, d *wsDialect, traderOf func(conn int) wsTrader) (benchReport, lagSample, error) {
	host, err := wsAddr(p.base)
	if err != nil {
		return benchReport{}, lagSample{}, err
	}
	if p.inflight <= 0 {
		p.inflight = defaultInflight
	}
	if p.timeout <= 0 {
		p.timeout = 30 * time.Second
	}
	st := newLoadStats(p.n)
	var all, buys, sells atomic.Int64
	next := func(conn int) (int, bool) {
		var i int
		switch {
		case p.conc == 1:
			i = int(all.Add(1)) - 1
		case conn%2 == 0:
			i = 2 * (int(buys.Add(1)) - 1)
		default:
			i = 2*(int(sells.Add(1))-1) + 1
		}
		return i, i < p.n
	}
	pc := newPacer(p.rate)
	var wg sync.WaitGroup
	for c := 0; c < p.conc; c++ {
		wg.Add(1)
		w := &wsWorker{plan: &p, d: d, host: host, trader: traderOf(c), st: st, pc: pc,
			next: func() (int, bool) { return next(c) }}
		go func() {
			defer wg.Done()
			w.run(ctx)
		}()
	}
	wg.Wait()
	rep := st.report(pc.start)
	return rep, st.last, st.firstErr
}

// wsWorker is one connection's sender; it dials again after a failure.
type wsWorker struct {
	plan   *loadPlan
	d      *wsDialect
	host   string
	trader wsTrader
	st     *loadStats
	pc     pacer
	next   func() (int, bool)
}

func (w *wsWorker) run(ctx context.Context) {
	for ctx.Err() == nil {
		c, err := w.connect()
		if err != nil {
			i, ok := w.next()
			if !ok {
				return
			}
			w.st.fail(i, err, 0)
			continue
		}
		more := w.session(ctx, c)
		c.close()
		if !more {
			return
		}
	}
	for {
		i, ok := w.next()
		if !ok {
			return
		}
		w.st.fail(i, ctx.Err(), 0)
	}
}

// connect dials the dialect's WebSocket and signs in where it has to.
func (w *wsWorker) connect() (*wsClient, error) {
	c, err := dialWSClient(w.host, w.d.path, w.plan.timeout)
	if err != nil {
		return nil, err
	}
	if w.d.signIn != nil {
		if err := w.d.signIn(c, w.trader.token, w.plan.timeout); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// signInWS sends the auth frame and waits for its reply.
func signInWS(c *wsClient, token string, timeout time.Duration) error {
	auth, _ := json.Marshal(map[string]any{"event": "auth", "params": map[string]string{"token": token}})
	if err := c.sendText(auth); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		msg, err := c.read(time.Until(deadline))
		if err != nil {
			return fmt.Errorf("bench: /ws auth: %w", err)
		}
		var rep struct {
			EventRep string `json:"event_rep"`
			Status   string `json:"status"`
			Msg      string `json:"msg"`
		}
		if json.Unmarshal(msg, &rep) != nil || rep.EventRep != "auth" {
			continue
		}
		if rep.Status != "ok" {
			return fmt.Errorf("bench: /ws auth refused: %s", rep.Msg)
		}
		return nil
	}
}

// session sends on c until the run's orders are all taken and answered
// (more false) or c fails (more true: the orders in flight on it failed
// with it, the next ones go to a new connection).
func (w *wsWorker) session(ctx context.Context, c *wsClient) (more bool) {
	inflight := w.plan.inflight
	slots := make(chan struct{}, inflight)
	var mu sync.Mutex
	pend := make(map[int]time.Time, inflight)
	var span sendSpan
	var last lagSample
	rdone := make(chan error, 1)
	go func() {
		rdone <- w.read(c, slots, &mu, pend, &last)
	}()

	var failure error
	held := -1 // taken, with a slot, not yet due
	buf := make([]byte, 0, 8<<10)
	var idb [20]byte
	var params []byte
	add := func(i int, t0 time.Time) {
		params = w.trader.params(params[:0])
		buf = c.appendText(buf, wsReqHead, strconv.AppendInt(idb[:0], int64(i), 10), wsReqMid, params, wsReqTail)
		mu.Lock()
		pend[i] = t0
		mu.Unlock()
	}
	exhausted := false
send:
	for !exhausted {
		if ctx.Err() != nil {
			failure = ctx.Err()
			break
		}
		if held < 0 {
			select {
			case slots <- struct{}{}:
			case err := <-rdone:
				rdone <- err
				failure = err
				break send
			}
			i, ok := w.next()
			if !ok {
				<-slots
				break
			}
			held = i
		}
		add(held, w.pc.wait(held))
		held = -1
		// More requests whose slot is free and whose time has come
		// leave in the same write.
		now := time.Now()
	batch:
		for len(buf) < 32<<10 {
			select {
			case slots <- struct{}{}:
			default:
				break batch
			}
			i, ok := w.next()
			if !ok {
				<-slots
				exhausted = true
				break
			}
			if w.pc.open() && w.pc.due(i).After(now) {
				held = i
				break
			}
			t0 := now
			if w.pc.open() {
				t0 = w.pc.due(i)
			}
			add(i, t0)
		}
		if err := c.write(buf); err != nil {
			failure = err
			break
		}
		span.sent(now)
		buf = buf[:0]
	}
	// Wait for the answers still to come.
	if failure == nil {
		timer := time.NewTimer(w.plan.timeout)
		defer timer.Stop()
	drain:
		for k := 0; k < inflight; k++ {
			select {
			case slots <- struct{}{}:
			case err := <-rdone:
				rdone <- err
				failure = err
				break drain
			case <-timer.C:
				failure = errors.New("bench: no answer to order.place requests in flight")
				break drain
			}
		}
	}
	c.close()
	rerr := <-rdone
	if failure == nil && len(pend) > 0 {
		failure = rerr
	}
	mu.Lock()
	for i := range pend {
		w.st.fail(i, fmt.Errorf("bench: connection lost: %w", failure), 0)
	}
	clear(pend)
	mu.Unlock()
	if held >= 0 {
		w.st.fail(held, fmt.Errorf("bench: connection lost: %w", failure), 0)
	}
	w.st.merge(span.first, span.last, last)
	return failure != nil
}

// read reads c's messages until it fails: an answer frees its request's
// slot and records its latency; anything else (on /ws, the trader's
// private updates) is counted.
func (w *wsWorker) read(c *wsClient, slots chan struct{}, mu *sync.Mutex, pend map[int]time.Time, last *lagSample) error {
	for {
		msg, err := c.read(w.plan.timeout)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				mu.Lock()
				idle := len(pend) == 0
				mu.Unlock()
				if idle {
					continue
				}
			}
			return err
		}
		id, code, orderID, ok := w.d.parse(msg)
		if !ok {
			if w.d.fatal(msg) {
				// A request frame the server does not serve (one without
				// order entry) or could not read: no answer will come.
				return fmt.Errorf("bench: %s: %.200s", w.d.path, msg)
			}
			w.st.pushed.Add(1)
			continue
		}
		mu.Lock()
		t0, mine := pend[id]
		delete(pend, id)
		mu.Unlock()
		if !mine {
			w.st.errOnce.Do(func() { w.st.firstErr = fmt.Errorf("bench: unexpected answer %.200s", msg) })
			continue
		}
		now := time.Now()
		if code == "0" {
			w.st.ok(id, now.Sub(t0))
			w.plan.lag.offer(orderID, w.trader.token, now)
			*last = lagSample{orderID: orderID, token: w.trader.token, acked: now}
		} else {
			w.st.fail(id, fmt.Errorf("order.place: %s %s", code, w.d.refusal(msg)), now.Sub(t0))
		}
		<-slots
	}
}

// parseWSAnswer reads an answer frame {"id":n,"status":..,"code":"c",...,
// "data":{"order_id":"x"}} as the server writes it (its fields in that
// order); ok is false for any other message.
func parseWSAnswer(msg []byte) (id int, code, orderID string, ok bool) {
	id, rest, ok := answerID(msg)
	if !ok {
		return 0, "", "", false
	}
	code, ok = stringField(rest, wsCodeKey)
	if !ok {
		return 0, "", "", false
	}
	if code == "0" {
		orderID, _ = stringField(rest, wsOrderIDKey)
	}
	return id, code, orderID, true
}

// answerID reads the integer id an answer frame starts with
// ({"id":n,...}, as both WebSocket APIs write their answers) and returns
// the rest of the frame from the comma after it; ok is false for a frame
// that does not start so.
func answerID(msg []byte) (id int, rest []byte, ok bool) {
	if !bytes.HasPrefix(msg, wsReqHead) {
		return 0, nil, false
	}
	rest = msg[len(wsReqHead):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		id = id*10 + int(rest[j]-'0')
		j++
	}
	if j == 0 || j > 12 || j == len(rest) || rest[j] != ',' {
		return 0, nil, false
	}
	return id, rest[j:], true
}

var (
	wsErrorReply = []byte(`{"event_rep":"error"`)
	wsCodeKey    = []byte(`"code":"`)
	wsOrderIDKey = []byte(`"order_id":"`)
)

// stringField is the value of the first "key":"value" in b (key includes
// the quotes, colon and opening quote); values with escapes are not
// expected.
func stringField(b, key []byte) (string, bool) {
	k := bytes.Index(b, key)
	if k < 0 {
		return "", false
	}
	v := b[k+len(key):]
	e := bytes.IndexByte(v, '"')
	if e < 0 {
		return "", false
	}
	return string(v[:e]), true
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/binance"
	"tenger/internal/content"
	"tenger/internal/gctune"
	"tenger/internal/httpapi"
	"tenger/internal/platform"
	"tenger/internal/store"
	"tenger/internal/webapp"
)

type serveFlags struct {
	addr, data, web, priceSources string
	dev, marketMaker              bool
	history                       time.Duration
	apiWeight, apiOrders          int
	codeIPSends                   int
}

func runServe(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var f serveFlags
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "listen address HOST:PORT")
	fs.StringVar(&f.data, "data", "./.tenger-data", "data directory")
	fs.BoolVar(&f.dev, "dev", false, "turn on the local simulators and the /dev routes")
	fs.StringVar(&f.web, "web", "frontend/dist", "directory of the built web app")
	fs.BoolVar(&f.marketMaker, "market-maker", true, "with --dev, run the market-maker simulator that keeps the seeded pairs trading")
	fs.DurationVar(&f.history, "seed-history", 72*time.Hour, "with --dev and the market maker, the made-up market history that pairs which never traded start with, so charts are not empty (0: none)")
	fs.StringVar(&f.priceSources, "price-sources", "", "external sources of the reference prices, e.g. binance,okx (default: the exchange's own books only)")
	fs.IntVar(&f.apiWeight, "api-weight-limit", 0, "request weight an IP may use per minute on the Binance-compatible API (default 6000, Binance's; raise it to benchmark from one address)")
	fs.IntVar(&f.codeIPSends, "code-ip-limit", 0, "verification codes one address may have sent per hour (default 50); the browser suite raises it, its every journey running from 127.0.0.1")
	fs.IntVar(&f.apiOrders, "api-order-limit", 0, "orders an account may place per 10 seconds on the Binance-compatible API (default 100, Binance's); the limit per day is 2000 times as many (200000 by default); raise it to benchmark with a few accounts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := zerolog.New(os.Stderr).With().Timestamp().Str("app", "tenger").Logger()
	gc := gctune.Apply()
	log.Info().Int("gc_percent", gc.Percent).Int64("memory_limit", gc.Limit).Msg("garbage collector set")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	d, err := platform.OpenLocal(f.data, platform.Config{Dev: f.dev, WalletLive: true, FuturesLive: true, PriceSources: f.priceSources, DevHistory: f.history,
		APIWeightLimit: f.apiWeight, APIOrderLimit: f.apiOrders, CodeIPSends: f.codeIPSends}, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := d.Close(); err != nil {
			log.Error().Err(err).Msg("close")
		}
	}()
	h, err := buildHandler(ctx, d, f.web)
	if err != nil {
		return err
	}
	if err := d.Start(ctx, f.data, f.dev && f.marketMaker); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	srv := newHTTPServer(h)
	log.Info().Str("addr", "http://"+ln.Addr().String()).Str("data", f.data).Bool("dev", f.dev).Msg("tenger serve started")
	return serveHTTP(ctx, srv, ln, log)
}

// requestReadTimeout bounds how long a client may take to send one whole
// request, body included (bodies are at most 64 KB). Without it a request
// whose body never arrives (a Content-Length larger than what is sent) held
// its connection and goroutine for as long as the client liked: many of
// them would exhaust the server. WebSocket connections clear it when they
// upgrade (push/hub).
var requestReadTimeout = 30 * time.Second

// newHTTPServer is the HTTP server of `tenger serve` (and of the no-op
// endpoint `tenger bench --ceiling` measures against).
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: requestReadTimeout, IdleTimeout: 120 * time.Second}
}

// serveHTTP serves until ctx ends, then shuts down gracefully: requests in
// flight finish with their own (uncancelled) context, so one whose write
// committed is answered as committed rather than 503, and only then is the
// context of long-lived connections (WebSockets, which Shutdown does not
// wait for) cancelled.
func serveHTTP(ctx context.Context, srv *http.Server, ln net.Listener, log zerolog.Logger) error {
	base, endLongLived := context.WithCancel(context.WithoutCancel(ctx))
	defer endLongLived()
	srv.BaseContext = func(net.Listener) context.Context { return base }
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info().Msg("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	endLongLived()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// buildHandler assembles every service of the local runtime on one mux.
func buildHandler(ctx context.Context, l *platform.Local, webDir string) (http.Handler, error) {
	d := l.Deps
	if _, err := content.Load(ctx, d.Store, content.Texts()); err != nil {
		return nil, fmt.Errorf("load page texts: %w", err)
	}
	wallet, err := d.WalletArea()
	if err != nil {
		return nil, err
	}
	futuresArea, err := d.FuturesArea()
	if err != nil {
		return nil, err
	}
	routers := append(append(append(append(d.ProfileArea(), wallet...), d.TradeArea()...), d.P2PArea()...), futuresArea...)
	routers = append(routers, d.CompetitionArea()...)
	routers = append(routers, d.EarnArea()...)
	// Raw routes: documents, content, health, dev tools.
	raw := httpapi.NewRouter(d.APIOptions("platform", nil))
	raw.HandleRaw(http.MethodGet, "/ws", httpapi.RouteOpts{Summary: "Realtime WebSocket: sub/unsub channels, ping/pong, auth with the session token, order entry requests",
		Tag: "realtime", WSMethods: httpapi.WSOrderMethods()},
		`frames {"event":"sub"|"unsub","params":{"channel":"..."}}, {"event":"auth","params":{"token":"..."}}, {"ping":n}; after an accepted auth the private channels user_orders and user_balances arrive without sub (a sub to user_* is refused), and request frames {"id","method","params"} place, cancel and amend orders (x-websocket-methods). Binance's market-stream frames {"method":"SUBSCRIBE"|"UNSUBSCRIBE"|"LIST_SUBSCRIPTIONS","params":[...],"id"} are served on the same socket (also /ws/<stream> and /stream?streams=a/b; README, Open API)`,
		`{"channel","ts","data"|"tick"}; user_orders data: the order as order/list/new shows it plus "event" (placed, accepted, trade, amended, done); user_balances data: {"account","sub","coin","normal","lock","total"}; {"pong":n}; request answers {"id","status","code","msg","data"}`, l.Hub.ServeHTTP)
	if d.Config.Dev {
		raw.HandleRaw(http.MethodGet, "/dev/outbox", httpapi.RouteOpts{Summary: "Local outbox: every SMS and e-mail sent, newest last (--dev only)", Tag: "dev"},
			"optional ?to=<phone or e-mail>", `[{"to", "channel", "operationType", "code", "sentAt"}]`, l.Outbox.ServeHTTP)
	}
	contentSvc := content.New(d.Store, content.Options{ReadToken: d.Config.ContentReadToken, Logger: &d.Log})
	ch := contentSvc.Handler()
	raw.HandleRaw("", "/graphql", httpapi.RouteOpts{Summary: "Content service: page texts per page id and locale", Tag: "content"},
		`{"query": "query($id:String!,$locale:String!){ page(id:$id, locale:$locale){ id locale translations } }", "variables": {...}} (POST JSON, or GET ?query=)`,
		`{"data": {"page": {"id", "locale", "translations"}}} or {"errors": [{"message"}]}`, ch.ServeHTTP)
	raw.HandleRaw(http.MethodGet, "/healthz", httpapi.RouteOpts{Summary: "Liveness and store health"}, "",
		`{"status": "ok"}`, func(w http.ResponseWriter, r *http.Request) {
			if _, err := d.Store.Query(r.Context(), storeProbe); err != nil {
				httpapi.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "store unavailable"})
				return
			}
			httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		})
	raw.HandleRaw(http.MethodGet, "/config.json", httpapi.RouteOpts{Summary: "Runtime configuration of the web app"}, "",
		`{"region", "api": {prefix: baseUrl}, "ws", "content", "flags"}`, func(w http.ResponseWriter, r *http.Request) {
			httpapi.WriteJSON(w, http.StatusOK, webapp.LocalConfig(r, httpapi.ServicePrefixes, webapp.Flags{
				FuturesLive: d.Config.FuturesLive, WalletLive: d.Config.WalletLive}))
		})
	all := append(append([]*httpapi.Router{}, routers...), raw)
	// The Binance-compatible API (bots, CCXT) on its own prefixes.
	bapi, err := d.BinanceAPI()
	if err != nil {
		return nil, fmt.Errorf("binance-compatible API: %w", err)
	}
	raw.HandleRaw(http.MethodGet, "/openapi.json", httpapi.RouteOpts{Summary: "This document"}, "", "OpenAPI 3.1 document",
		func(w http.ResponseWriter, r *http.Request) {
			httpapi.WriteJSON(w, http.StatusOK, httpapi.OpenAPI("Tenger API", version, append(httpapi.AllRoutes(all...), binanceDocs(bapi)...)))
		})

	raw.HandleRaw(http.MethodGet, binance.WSAPIPath, httpapi.RouteOpts{Tag: "binance-compatible",
		Summary: "Binance's WebSocket API: orders, account queries and the user data stream on one connection"},
		`frames {"id","method","params"}: ping, time, exchangeInfo, depth, trades.recent, trades.historical, trades.aggregate, klines, uiKlines, avgPrice, ticker.24hr, ticker.price, ticker.book, ticker, order.place, order.test, order.status, order.cancel, openOrders.status, openOrders.cancelAll, allOrders, myTrades, account.status, account.commission (each as the REST endpoint it mirrors; apiKey, timestamp and signature are params, signed over every param but signature sorted by name as key=value joined by &), session.logon (Ed25519 keys), session.status, session.logout, session.subscriptions, userDataStream.subscribe, userDataStream.subscribe.signature, userDataStream.unsubscribe (README, Open API)`,
		`{"id","status":200,"result",...,"rateLimits":[...]} or {"id","status","error":{"code","msg"},"rateLimits"}; user data events {"subscriptionId":n,"event":{"e":"executionReport"|"outboundAccountPosition"|"eventStreamTerminated",...}}`,
		bapi.WSAPI(l.Hub).ServeHTTP)
	mux := http.NewServeMux()
	httpapi.Mount(mux, all...)
	for _, p := range bapi.Prefixes() {
		mux.Handle(p, bapi)
	}
	// Its WebSocket market streams: /ws/<stream>, /stream?streams=..., and
	// Binance's SUBSCRIBE frames on /ws beside the web app's.
	streams := bapi.Streams(l.Hub)
	for _, p := range streams.Paths() {
		mux.Handle(p, streams)
	}
	// Its WebSocket API (orders and user data over one connection), and
	// the user data events it and the listen key streams send, read from
	// the store's change feed while anybody listens.
	if ud := bapi.UserData(); ud != nil {
		l.FollowFeed(ud)
	}
	mux.Handle("/", webapp.Handler(webDir))
	// The security headers CloudFront adds in AWS, on every answer.
	return webapp.SecurityHeaders(mux), nil
}

// binanceDocs are the Binance-compatible API's endpoints as entries of the
// OpenAPI document (their shapes are Binance's; README, "Open API").
func binanceDocs(s *binance.Server) []httpapi.RouteDoc {
	var out []httpapi.RouteDoc
	for _, r := range s.Routes() {
		out = append(out, httpapi.RouteDoc{Method: r.Method, Path: r.Path, Tag: "binance-compatible",
			Summary: r.Method + " " + r.Path + " as Binance's spot API answers it", RawRequest: r.Describe(),
			RawResponse: `Binance's JSON answer; errors {"code": <negative Binance code>, "msg"} with Binance's HTTP status (400, 401, 403, 404, 418, 429)`})
	}
	return out
}

// storeProbe is a cheap query the health check runs against the store.
var storeProbe = store.Query{PK: "HEALTH", Limit: 1}

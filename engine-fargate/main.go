// Command engine is the matching engine service of Tenger's AWS runtime: one
// Fargate task running the spot engine (internal/spot) on the orders FIFO
// queue (message group = symbol) and the DynamoDB table, with its journal
// and book snapshots in ENGINE_DATA_DIR (default /data, the task's EFS
// mount). It reports health on HEALTH_ADDR (default :8081, GET /healthz).
// SIGTERM stops the loop after the batch in hand, writes a snapshot and
// closes the journal; ECS waits for it up to the task's stop timeout.
//
// `engine healthcheck` probes /healthz and exits 0 or 1: the container image
// is distroless (no shell, no curl), so the binary is its own health probe.
//
// Environment: TABLE_NAME and ORDERS_QUEUE_URL (required), WS_ENDPOINT (the
// WebSocket API's management endpoint: the market channels are published
// from here), ENGINE_DATA_DIR, HEALTH_ADDR, STAGE, LOG_LEVEL; AWS
// credentials and region come from the task role.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/gctune"
	"tenger/internal/marketdata"
	"tenger/internal/platform"
	"tenger/internal/refprice"
	"tenger/internal/spot"
)

const (
	defaultHealthAddr = ":8081"
	defaultDataDir    = "/data"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "healthcheck" {
		os.Exit(healthcheck(getenv("HEALTH_ADDR", defaultHealthAddr)))
	}
	log := zerolog.New(os.Stdout).With().Timestamp().
		Str("service", "engine").Str("stage", os.Getenv("STAGE")).Logger()
	if lvl, err := zerolog.ParseLevel(os.Getenv("LOG_LEVEL")); err == nil && lvl != zerolog.NoLevel {
		log = log.Level(lvl)
	}
	gc := gctune.Apply()
	log.Info().Int("gc_percent", gc.Percent).Int64("memory_limit", gc.Limit).Msg("garbage collector set")
	if err := run(log); err != nil {
		log.Error().Err(err).Msg("engine failed")
		os.Exit(1)
	}
}

func run(log zerolog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	d, err := platform.NewAWS(ctx, log)
	if err != nil {
		return err
	}
	defer d.Close()
	if d.Orders == nil {
		return errors.New(platform.EnvOrdersQueue + " is not set")
	}
	// Trades and depth feed the market data service, which stores trades,
	// tickers and klines in the table for the API functions and publishes
	// the market channels (depth every 100 ms at most, trades, tickers,
	// klines) straight to the WebSocket API's subscribers: the engine is
	// the only process that sees the books, and a depth picture ten times
	// a second per pair would be a costly and slow detour through the table
	// and its stream. The publishing is queued (UseAsyncMarketPush), so
	// slow clients never hold up the feed. Without WS_ENDPOINT it pushes
	// nothing. Matching does not depend on it.
	d.UseAsyncMarketPush()
	var feed marketdata.Feed
	md, err := d.MarketData()
	if err != nil {
		log.Warn().Err(err).Msg("market data unavailable; the engine runs without its feed")
	} else {
		md.Start()
		defer md.Stop()
		feed = md
	}
	// The reference prices are formed here, where the books are: sampled
	// from the depth the engine publishes to the market data service,
	// combined with the external sources of $REFPRICE_SOURCES, pinned by
	// the operator's item in the table (tenger prices --aws pin ...).
	if md != nil {
		if err := d.StartRefPrices(ctx, md, refprice.StoreSource{Store: d.Store}); err != nil {
			return fmt.Errorf("reference prices: %w", err)
		}
	}
	dataDir := getenv("ENGINE_DATA_DIR", defaultDataDir)
	svc, err := newService(ctx, spot.EngineOptions{Store: d.Store, Ledger: d.Ledger(), Markets: d.Markets, Orders: d.Orders,
		DataDir: dataDir, Feed: feed, Prices: d.RefPrices(), Log: log, Now: d.Now, Exclusive: true},
		serviceOptions{MinWait: time.Second})
	if err != nil {
		return fmt.Errorf("engine start (data dir %s): %w", dataDir, err)
	}

	srv := &http.Server{Addr: getenv("HEALTH_ADDR", defaultHealthAddr), Handler: svc.healthHandler(), ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", srv.Addr)
	if err != nil {
		_ = svc.eng.Stop()
		return fmt.Errorf("health listener: %w", err)
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error().Err(err).Msg("health server stopped")
		}
	}()
	log.Info().Str("health", srv.Addr).Str("data_dir", dataDir).Msg("engine started")

	err = svc.run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	return err
}

// healthcheck asks the running engine for its health: exit status 0 when
// healthy, 1 otherwise.
func healthcheck(addr string) int {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return 1
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	c := http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get("http://" + net.JoinHostPort(host, port) + "/healthz")
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		return 1
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "healthcheck: status", resp.Status)
		return 1
	}
	return 0
}

func getenv(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

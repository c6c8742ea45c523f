// Command engine is the matching engine service of Tenger's AWS runtime: one
// Fargate task that polls the orders FIFO queue (message group = symbol),
// runs the engine and reports health on HEALTH_ADDR (default :8081,
// GET /healthz). SIGTERM stops the polling, finishes the commands already
// received and exits; ECS waits for it up to the task's stop timeout.
//
// `engine healthcheck` probes /healthz and exits 0 or 1: the container image
// is distroless (no shell, no curl), so the binary is its own health probe.
//
// Environment: ORDERS_QUEUE_URL (required), TABLE_NAME (the engine's journal
// and snapshots, with the matching core), EVENTS_QUEUE_URL, HEALTH_ADDR,
// STAGE, LOG_LEVEL; AWS credentials and region come from the task role.
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

	"tenger/internal/platform"
)

const defaultHealthAddr = ":8081"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "healthcheck" {
		os.Exit(healthcheck(getenv("HEALTH_ADDR", defaultHealthAddr)))
	}
	log := zerolog.New(os.Stdout).With().Timestamp().
		Str("service", "engine").Str("stage", os.Getenv("STAGE")).Logger()
	if lvl, err := zerolog.ParseLevel(os.Getenv("LOG_LEVEL")); err == nil && lvl != zerolog.NoLevel {
		log = log.Level(lvl)
	}
	if err := run(log); err != nil {
		log.Error().Err(err).Msg("engine failed")
		os.Exit(1)
	}
}

func run(log zerolog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	// The same ports as the functions, from the environment the engine
	// stack sets (TABLE_NAME, ORDERS_QUEUE_URL, EVENTS_QUEUE_URL). The store
	// will hold the engine's journal and snapshots once the matching core
	// lands.
	d, err := platform.NewAWS(ctx, log)
	if err != nil {
		return err
	}
	defer d.Close()
	if d.Orders == nil {
		return errors.New("ORDERS_QUEUE_URL is not set")
	}
	orders := d.Orders

	r := newRunner(orders, log)
	srv := &http.Server{Addr: getenv("HEALTH_ADDR", defaultHealthAddr), Handler: r.healthHandler(), ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", srv.Addr)
	if err != nil {
		return fmt.Errorf("health listener: %w", err)
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error().Err(err).Msg("health server stopped")
		}
	}()
	log.Info().Str("health", srv.Addr).Msg("engine started")

	err = r.run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	log.Info().Msg("engine stopped")
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

// Command engine is the engine task of Tenger's AWS runtime: it runs the
// engine that owns the spot balances (internal/spot.Runtime: the engine,
// its journal and snapshots on the task's EFS mount, the store projection
// into DynamoDB, market data and reference prices) and serves its private
// endpoint (internal/engine/remote) to the API functions in the VPC.
//
// Two tasks run. The active one holds the engine lease (an item in the
// table) and writes its private address into it; the functions read that
// item to find it. The other waits as a standby and, once the lease lapses
// or is given up, takes it, replays the journal on EFS and serves. A task
// that cannot renew its lease exits at once, before a standby can take
// it, so two engines never write the journal.
//
// Every 10 s it writes its metrics (active or not, commands applied,
// projection lag, pushes dropped) in CloudWatch's embedded metric format on
// stdout (metrics.go). It reports health on HEALTH_ADDR (default :8081, GET /healthz): a
// standby is healthy. SIGTERM stops the endpoint after the requests in
// hand, writes a snapshot, closes the journal and gives the lease up.
//
// `engine healthcheck` probes /healthz and exits 0 or 1: the container image
// is distroless (no shell, no curl), so the binary is its own health probe.
//
// Environment: TABLE_NAME, ENGINE_KEY (the endpoint's signing key, from a
// secret), ENGINE_LISTEN (default :8082), ENGINE_ADVERTISE (host:port the
// functions reach; by default the task's private address from the ECS
// metadata endpoint and ENGINE_LISTEN's port), ENGINE_DATA_DIR (default
// /data), WS_ENDPOINT (the market channels are published from here),
// REFPRICE_SOURCES, HEALTH_ADDR, STAGE, LOG_LEVEL; AWS credentials and
// region come from the task role.
//
// Tracing (internal/tracing) is on when OTEL_EXPORTER_OTLP_ENDPOINT names
// the ADOT collector beside the engine in its task: every request to the
// endpoint that its caller's trace samples (and OTEL_TRACES_SAMPLER_ARG,
// 5 % by default, of those that come without one) is an engine.submit
// span, exported to the collector and so to X-Ray; the spans still queued
// are flushed on SIGTERM once the endpoint has drained.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/emf"
	"tenger/internal/gctune"
	"tenger/internal/platform"
	"tenger/internal/tracing"
)

const (
	defaultHealthAddr = ":8081"
	defaultListen     = ":8082"
	defaultDataDir    = "/data"
	// traceService names the engine in traces unless OTEL_SERVICE_NAME
	// does (the stack names it per stage).
	traceService = "tenger-engine"
	// leaseTTL: a standby takes over at most this long after the active
	// task died; the active renews every third of it.
	leaseTTL = 15 * time.Second
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
	if d.EngineKey == nil {
		return errors.New(platform.EnvEngineKey + " is not set")
	}
	listen := getenv("ENGINE_LISTEN", defaultListen)
	addr, owner, err := advertise(ctx, listen)
	if err != nil {
		return err
	}
	// The market channels are published straight to the WebSocket API's
	// connections from here, queued so slow clients never hold up the feed.
	d.UseAsyncMarketPush()
	cfg := config{DataDir: getenv("ENGINE_DATA_DIR", defaultDataDir), Listen: listen, Advertise: addr,
		Owner: owner, LeaseTTL: leaseTTL, Key: d.EngineKey}
	// Tracing never stops the engine: without it the endpoint serves as
	// before, untraced.
	tp, err := tracing.Start(ctx, traceService, func(err error) { log.Warn().Err(err).Msg("tracing") })
	if err != nil {
		log.Warn().Err(err).Msg("tracing off")
	} else if tp != nil {
		cfg.Tracer = tp.Tracer()
		log.Info().Msg("tracing on")
	}
	svc := newService(d, cfg, log)
	// A lost lease ends the process at once: another engine may already
	// be writing the journal. The journal holds every answered command.
	svc.onLost = func(err error) {
		log.Error().Err(err).Msg("engine lease lost: stopping now")
		os.Exit(3)
	}

	hs := &http.Server{Addr: getenv("HEALTH_ADDR", defaultHealthAddr), Handler: svc.healthHandler(), ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", hs.Addr)
	if err != nil {
		return fmt.Errorf("health listener: %w", err)
	}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error().Err(err).Msg("health server stopped")
		}
	}()
	log.Info().Str("health", hs.Addr).Str("advertise", addr).Str("owner", owner).Msg("engine task started")
	go svc.reportMetrics(ctx, emf.New(os.Stdout, MetricsNamespace, map[string]string{"Stage": os.Getenv("STAGE")}), MetricsEvery)
	err = svc.run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(shutdown)
	// The endpoint has drained: its last spans are queued.
	if terr := tp.Shutdown(shutdown); terr != nil {
		log.Warn().Err(terr).Msg("tracing: spans not flushed")
	}
	return err
}

// advertise is the address the functions reach this task's endpoint at,
// and the task's name as a lease owner: ENGINE_ADVERTISE, or the task's
// private address from the ECS task metadata endpoint.
func advertise(ctx context.Context, listen string) (addr, owner string, err error) {
	host, _ := os.Hostname()
	if a := os.Getenv("ENGINE_ADVERTISE"); a != "" {
		return a, host + "/" + a, nil
	}
	_, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", "", fmt.Errorf("ENGINE_LISTEN %q: %w", listen, err)
	}
	uri := os.Getenv("ECS_CONTAINER_METADATA_URI_V4")
	if uri == "" {
		return "", "", errors.New("neither ENGINE_ADVERTISE nor the ECS metadata endpoint is set")
	}
	ip, arn, err := taskAddress(ctx, http.DefaultClient, uri)
	if err != nil {
		return "", "", err
	}
	return net.JoinHostPort(ip, port), arn, nil
}

// taskMetadata is the part of the ECS task metadata (v4) read here.
type taskMetadata struct {
	TaskARN    string `json:"TaskARN"`
	Containers []struct {
		Networks []struct {
			IPv4Addresses []string `json:"IPv4Addresses"`
		} `json:"Networks"`
	} `json:"Containers"`
}

// taskAddress reads the task's private IPv4 address and ARN from the ECS
// task metadata endpoint v4 (uri + "/task").
func taskAddress(ctx context.Context, hc *http.Client, uri string) (ip, arn string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri+"/task", nil)
	if err != nil {
		return "", "", err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", "", fmt.Errorf("task metadata: %w", err)
	}
	defer resp.Body.Close()
	var m taskMetadata
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return "", "", fmt.Errorf("task metadata: %w", err)
	}
	for _, c := range m.Containers {
		for _, n := range c.Networks {
			if len(n.IPv4Addresses) > 0 {
				return n.IPv4Addresses[0], m.TaskARN, nil
			}
		}
	}
	return "", "", errors.New("task metadata: no private IPv4 address")
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

package platform

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"tenger/internal/coins"
	"tenger/internal/engine"
	"tenger/internal/engine/lease"
	"tenger/internal/engine/remote"
	"tenger/internal/spot"
	"tenger/internal/store"
)

// Environment variables of the engine's private endpoint.
const (
	// EnvEngineKey is the key that signs requests to the engine's endpoint
	// (at least 32 characters): the engine task gets it from the secret,
	// tests and LocalStack set it directly.
	EnvEngineKey = "ENGINE_KEY"
	// EnvEngineKeySecret is the ARN of the Secrets Manager secret holding
	// it: the functions that submit engine commands read it at a cold start.
	EnvEngineKeySecret = "ENGINE_KEY_SECRET_ARN"
)

// EngineLease names the lease the active engine holds; its item is also
// where the functions find the engine's address.
const EngineLease = "spot"

// EngineClient is the engine as the services reach it: in this process
// (spot.Runtime) or the engine task's endpoint (RemoteEngine).
type EngineClient interface {
	spot.EngineClient
	Decimals(coin string) (int32, bool)
}

// engine is the engine the services submit to: the one this process
// runs, else the engine task's endpoint, else none (nil).
func (d *Deps) engine() EngineClient {
	if d.Engine != nil {
		return d.Engine
	}
	if d.EngineRemote != nil {
		return d.EngineRemote
	}
	return nil
}

// HasEngine says whether the services of d reach an engine.
func (d *Deps) HasEngine() bool { return d.engine() != nil }

// ErrNoEngine refuses to start a function that moves spot money without
// the engine that owns the balances: it would write them in the store
// behind the engine's back.
var ErrNoEngine = errors.New("platform: no engine to submit to (" + EnvEngineKey + " or " + EnvEngineKeySecret + " is not set)")

// NeedEngine is ErrNoEngine when d reaches no engine.
func (d *Deps) NeedEngine() error {
	if !d.HasEngine() {
		return ErrNoEngine
	}
	return nil
}

// RemoteEngine submits to the active engine task over its private
// endpoint, found through the lease item it holds.
type RemoteEngine struct {
	Client *remote.Client
	Coins  *coins.Catalogue
}

// NewRemoteEngine reaches the engine that holds EngineLease in st, signing
// with key.
func NewRemoteEngine(st store.Store, cat *coins.Catalogue, key []byte) *RemoteEngine {
	return &RemoteEngine{Coins: cat, Client: &remote.Client{Key: key, HTTP: engineHTTP,
		Resolve: func(ctx context.Context) (string, error) {
			h, ok, err := lease.Lookup(ctx, st, EngineLease, time.Now())
			if err != nil {
				return "", err
			}
			if !ok || h.Addr == "" {
				return "", errors.New("platform: no engine is active (its lease is free)")
			}
			return "http://" + h.Addr, nil
		}}}
}

// engineHTTP keeps connections to the engine open between invocations.
var engineHTTP = newEngineHTTP()

// Submit answers once the command is durable in the engine's journal.
func (r *RemoteEngine) Submit(ctx context.Context, c engine.Command) engine.Result {
	return r.Client.Submit(ctx, c)
}

// SubmitProjected answers once the store shows the command.
func (r *RemoteEngine) SubmitProjected(ctx context.Context, c engine.Command) (engine.Result, error) {
	res, err := r.Client.SubmitProjected(ctx, c)
	if errors.Is(err, remote.ErrNotProjected) {
		err = fmt.Errorf("%w: %v", spot.ErrNotProjected, err)
	}
	return res, err
}

// Decimals is a coin's engine unit.
func (r *RemoteEngine) Decimals(coin string) (int32, bool) { return spot.CoinDecimals(r.Coins, coin) }

// engineKeyFromEnv reads the engine endpoint's key: $ENGINE_KEY, or the
// secret $ENGINE_KEY_SECRET_ARN names; nil when neither is set.
func engineKeyFromEnv(ctx context.Context, sm func() secretGetter) ([]byte, error) {
	if k := strings.TrimSpace(os.Getenv(EnvEngineKey)); k != "" {
		if len(k) < minAuthKeyLen {
			return nil, fmt.Errorf("platform: %s holds fewer than %d characters", EnvEngineKey, minAuthKeyLen)
		}
		return []byte(k), nil
	}
	if arn := os.Getenv(EnvEngineKeySecret); arn != "" {
		return secretKey(ctx, sm(), arn, "engine key")
	}
	return nil, nil
}

func newEngineHTTP() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	t.IdleConnTimeout = 90 * time.Second
	return &http.Client{Transport: t, Timeout: 15 * time.Second}
}

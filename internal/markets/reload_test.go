package markets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/store/embedded"
)

// withPair returns the default catalogue's JSON with one more pair line.
func withPair(line string) string {
	d := strings.TrimSpace(string(defaultJSON))
	return strings.TrimSuffix(d, "]") + ",\n" + line + "\n]"
}

const ethBTC = `{"symbol": "ethbtc", "base": "ETH", "quote": "BTC", "sort": 1, "pricePrecision": 6, "volumePrecision": 4, "priceTick": "0.000001", "lotSize": "0.0001", "minQty": "0.001", "minNotional": "0.0001"}`

func mustParse(t *testing.T, s string) *Catalogue {
	t.Helper()
	c, err := parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestReplaceAddsAndRefusesIncompatibleChanges(t *testing.T) {
	c := Defaults()
	v := c.Version()
	opened, err := c.Replace(mustParse(t, withPair(ethBTC)))
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) != 1 || opened[0].Symbol != "ethbtc" || c.Version() != v+1 {
		t.Fatalf("opened %v, version %d→%d", opened, v, c.Version())
	}
	if _, ok := c.Pair("ETH/BTC"); !ok || len(c.Quotes()) != 3 {
		t.Fatalf("ethbtc not served: quotes %v", c.Quotes())
	}

	// Dropping a pair, or changing its tick, leaves the catalogue as it was.
	for name, next := range map[string]string{
		"dropped":   string(defaultJSON),
		"re-ticked": strings.Replace(withPair(ethBTC), `"priceTick": "0.01", "lotSize": "0.000001"`, `"priceTick": "0.1", "lotSize": "0.000001"`, 1),
	} {
		if _, err := c.Replace(mustParse(t, next)); !errors.Is(err, ErrIncompatible) {
			t.Errorf("%s: %v, want ErrIncompatible", name, err)
		}
	}
	if _, ok := c.Pair("ethbtc"); !ok || c.Version() != v+1 {
		t.Fatal("a refused replacement changed the catalogue")
	}

	// Closing keeps the pair known but not listed; reopening reports it.
	closed := strings.Replace(withPair(ethBTC), `"minNotional": "0.0001"}`, `"minNotional": "0.0001", "closed": true}`, 1)
	if _, err := c.Replace(mustParse(t, closed)); err != nil {
		t.Fatal(err)
	}
	for _, p := range c.List() {
		if p.Symbol == "ethbtc" {
			t.Fatal("a closed pair is listed")
		}
	}
	if opened, err := c.Replace(mustParse(t, withPair(ethBTC))); err != nil || len(opened) != 1 {
		t.Fatalf("reopen: %v %v", opened, err)
	}
}

func TestWatchFilePicksUpANewPair(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Watch(ctx, FileSource{Dir: dir}, 10*time.Millisecond, zerolog.Nop())
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(withPair(ethBTC)), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, ok := c.Pair("ethbtc"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watcher never installed the new pair")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A malformed edit is skipped: the pair stays.
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("[{"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if _, ok := c.Pair("ethbtc"); !ok {
		t.Fatal("a malformed file removed the pair")
	}
}

func TestPublishAndStoreSource(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	c, stamp, err := StoreSource{st}.Read(ctx)
	if err != nil || c != nil || stamp != "none" {
		t.Fatalf("empty table: %v %q %v", c, stamp, err)
	}
	if err := Publish(ctx, st, []byte(withPair(ethBTC))); err != nil {
		t.Fatal(err)
	}
	if err := Publish(ctx, st, defaultJSON); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("publishing a catalogue without ethbtc: %v", err)
	}
	if err := Publish(ctx, st, []byte("not json")); !errors.Is(err, ErrInvalid) {
		t.Fatalf("publishing garbage: %v", err)
	}
	live := Defaults()
	if _, err := live.reloadOnce(ctx, StoreSource{st}, "", zerolog.Nop()); err != nil {
		t.Fatal(err)
	}
	if _, ok := live.Pair("ethbtc"); !ok {
		t.Fatal("the published pair did not reach a process reading the table")
	}
}

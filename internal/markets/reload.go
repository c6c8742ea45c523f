package markets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/store"
)

// Pairs are added while the exchange runs: the operator edits the
// catalogue (markets.json in the data directory locally, the catalogue item
// in the table in AWS), a watcher notices and Replaces the catalogue, the
// API takes orders for the new pair at once and the engine opens its book
// when it sees the new Version. Existing pairs may be closed, reopened,
// re-sorted and re-labelled, but never removed or re-gridded: the engine
// holds their books in price ticks and lots, and stored orders refer to
// them.

// ErrIncompatible reports a new catalogue that drops a pair or changes the
// grid of one; the running catalogue stays as it was.
var ErrIncompatible = errors.New("markets: incompatible catalogue change")

// Version counts replacements; it starts at 1.
func (c *Catalogue) Version() uint64 { return c.version.Load() }

// Replace installs next's pairs and returns the pairs that became open
// (added, or reopened). It refuses, with ErrIncompatible, a catalogue that
// drops a pair or changes a pair's coins, tick, lot or precisions.
func (c *Catalogue) Replace(next *Catalogue) ([]Pair, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, nw := c.cur.Load(), next.cur.Load()
	for sym, p := range old.by {
		q, ok := nw.by[sym]
		if !ok {
			return nil, fmt.Errorf("%w: %s is missing (close a pair instead of removing it)", ErrIncompatible, sym)
		}
		if p.Base != q.Base || p.Quote != q.Quote || !p.PriceTick.Equal(q.PriceTick) || !p.LotSize.Equal(q.LotSize) ||
			p.PricePrecision != q.PricePrecision || p.VolumePrecision != q.VolumePrecision {
			return nil, fmt.Errorf("%w: %s changes its coins, tick, lot or precision", ErrIncompatible, sym)
		}
	}
	var opened []Pair
	for _, q := range nw.pairs {
		if p, ok := old.by[q.Symbol]; !ok || p.Closed {
			opened = append(opened, q)
		}
	}
	c.cur.Store(nw)
	c.version.Add(1)
	return opened, nil
}

// Source reads the operator's catalogue; nil, nil means "none, use the
// defaults".
type Source interface {
	// Read returns the catalogue and a stamp that changes when it does
	// (so an unchanged source is not parsed again).
	Read(ctx context.Context) (cat *Catalogue, stamp string, err error)
}

// Watch polls src every interval until ctx ends and replaces c when the
// source changes. Unreadable, malformed or incompatible catalogues are
// logged and skipped: the running catalogue stays.
func (c *Catalogue) Watch(ctx context.Context, src Source, every time.Duration, log zerolog.Logger) {
	last := ""
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if stamp, err := c.reloadOnce(ctx, src, last, log); err == nil {
			last = stamp
		} else if ctx.Err() == nil {
			log.Error().Err(err).Msg("markets catalogue not reloaded")
			last = stamp // report a bad version once, not every tick
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (c *Catalogue) reloadOnce(ctx context.Context, src Source, last string, log zerolog.Logger) (string, error) {
	next, stamp, err := src.Read(ctx)
	if err != nil || stamp == last {
		return stamp, err
	}
	if next == nil {
		next = Defaults()
	}
	opened, err := c.Replace(next)
	if err != nil {
		return stamp, err
	}
	for _, p := range opened {
		log.Info().Str("symbol", p.Symbol).Msg("pair opened")
	}
	return stamp, nil
}

// FileSource is markets.json in a data directory.
type FileSource struct{ Dir string }

// Read parses the file when it exists (stamp: modification time and size).
func (f FileSource) Read(context.Context) (*Catalogue, string, error) {
	path := filepath.Join(f.Dir, FileName)
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "none", nil
	}
	if err != nil {
		return nil, "", err
	}
	stamp := fmt.Sprintf("%d/%d", fi.ModTime().UnixNano(), fi.Size())
	c, err := Load(f.Dir)
	return c, stamp, err
}

// The catalogue item of the AWS runtime (written by `tenger markets
// publish`): pk CONFIG#markets, sk CATALOGUE, attribute "pairs" holding the
// same JSON as markets.json.
var storeKey = store.Key{PK: "CONFIG#markets", SK: "CATALOGUE"}

// StoreSource is the catalogue item in the table.
type StoreSource struct{ Store store.Store }

// Read parses the item when it exists (stamp: its text).
func (s StoreSource) Read(ctx context.Context) (*Catalogue, string, error) {
	it, err := s.Store.Get(ctx, storeKey)
	if errors.Is(err, store.ErrNotFound) {
		return nil, "none", nil
	}
	if err != nil {
		return nil, "", err
	}
	text := it.Str("pairs")
	c, err := parse([]byte(text))
	if err != nil {
		return nil, text, fmt.Errorf("catalogue item: %w", err)
	}
	return c, text, nil
}

// Publish validates a catalogue (JSON as in markets.json) and writes it as
// the table's catalogue item, for the watchers of every process to pick up.
// It refuses a catalogue that is incompatible with the one published now.
func Publish(ctx context.Context, st store.Store, jsonText []byte) error {
	next, err := parse(jsonText)
	if err != nil {
		return err
	}
	cur, _, err := StoreSource{st}.Read(ctx)
	if err != nil {
		return err
	}
	if cur == nil {
		cur = Defaults()
	}
	if _, err := cur.Replace(next); err != nil {
		return err
	}
	return st.Put(ctx, store.Item{store.AttrPK: storeKey.PK, store.AttrSK: storeKey.SK, "pairs": string(jsonText)}, nil)
}

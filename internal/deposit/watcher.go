package deposit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"tenger/internal/chainsim"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// ChainSource is what the watcher reads from a chain: the chain simulator
// locally (*chainsim.Sim); a node or indexer adapter in production.
type ChainSource interface {
	Chains() []string
	Head(ctx context.Context, chainName string) (int64, error)
	// OpenIncoming lists transfers to exchange addresses not yet closed.
	OpenIncoming(ctx context.Context, chainName string) ([]chainsim.Transfer, error)
	// CloseIncoming marks a transfer done (credited or held for review).
	CloseIncoming(ctx context.Context, chainName, txid string) error
}

var _ ChainSource = (*chainsim.Sim)(nil)

// DepositID is the id of the deposit of one transfer output.
func DepositID(chainName, txid string, vout int) string {
	return fmt.Sprintf("%s:%s:%d", chainName, txid, vout)
}

// Observe records what the chain says about a transfer at height head:
// the deposit record appears (confirming; review when no user owns the
// destination; below_min, final and never credited, when it is smaller
// than the chain's depositMin), its confirmations grow, and once it has the coin's
// confirmations it is credited: Funds.Credit keyed by chain, txid and
// output, then the record marked credited in its own step. It reports
// whether the transfer is final (credited, held for review or below the
// minimum). Calling it
// again for the same transfer never credits twice, and repairs a record
// left confirming by a crash after its credit.
func (s *Service) Observe(ctx context.Context, t chainsim.Transfer, head int64) (final bool, err error) {
	id := DepositID(t.Chain, t.TxID, t.Vout)
	required := int64(1)
	known := false
	cfg, ok := s.o.Coins.Chain(t.Coin, t.Chain)
	if ok && !cfg.IsBank() {
		known = true
		required = int64(max(cfg.Confirmations, 1))
	}
	conf := t.Confirmations(head)
	now := s.o.Now()
	rec, err := s.getRecord(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		uid := ""
		if known {
			if uid, err = s.OwnerOf(ctx, t.Chain, t.Address, t.Memo); err != nil {
				return false, err
			}
		}
		status, hist := StatusConfirming, "DEPHIST#"+uid
		switch {
		case uid == "":
			status, hist = StatusReview, reviewPK
			s.o.Log.Warn().Str("chain", t.Chain).Str("txid", t.TxID).Msg("deposit to an unknown address held for review")
		case t.Amount.LessThan(cfg.DepositMin):
			// The minimum the deposit modal showed: the record says why
			// nothing was credited, in the user's own history.
			status = StatusBelowMin
			s.o.Log.Warn().Str("chain", t.Chain).Str("txid", t.TxID).Str("amount", t.Amount.String()).
				Str("depositMin", cfg.DepositMin.String()).Msg("deposit below the chain's minimum not credited")
		}
		k := depositKey(id)
		it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": id, "uid": uid, "coin": t.Coin, "chain": t.Chain,
			"txid": t.TxID, "vout": t.Vout, "address": t.Address, "memo": t.Memo, "amount": t.Amount,
			"confirmations": min(conf, required), "required": required, "status": status, "created": now.UnixMilli(),
			store.AttrGSI1PK: hist, store.AttrGSI1SK: histSK(now.UnixMilli(), id)}
		if err := s.o.Store.Put(ctx, it, store.ItemNotExists()); err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return false, err
		}
		if rec, err = s.getRecord(ctx, id); err != nil {
			return false, err
		}
		s.notify(ctx, rec)
	} else if err != nil {
		return false, err
	}
	switch rec.Status {
	case StatusCredited, StatusReview, StatusBelowMin:
		return true, nil
	}
	if conf < rec.Required {
		if conf > rec.Confirmations {
			_, err := s.o.Store.Update(ctx, depositKey(id), store.NewUpdate().Set("confirmations", conf),
				store.And(store.Eq("status", StatusConfirming), store.Compare("confirmations", store.CmpLt, conf)))
			if err != nil && !errors.Is(err, store.ErrConditionFailed) {
				return false, err
			}
			rec.Confirmations = conf
			s.notify(ctx, rec)
		}
		return false, nil
	}
	// The credit, then the record in its own step: a crash between the two
	// is repaired when the transfer is observed again (the credit answers
	// nil as a retry, the record is updated).
	if err := s.o.Funds.Credit(ctx, spotfunds.Move{Ref: "deposit:" + id, UID: rec.UID, Coin: rec.Coin, Amount: rec.Amount,
		Other: ledger.ChainAccount(t.Chain), Reason: "deposit"}); err != nil {
		return false, err
	}
	_, err = s.o.Store.Update(ctx, depositKey(id), store.NewUpdate().Set("status", StatusCredited).
		Set("confirmations", rec.Required).Set("credited", now.UnixMilli()), store.Eq("status", StatusConfirming))
	switch {
	case errors.Is(err, store.ErrConditionFailed):
		// Another run marked it credited.
		if rec, err = s.getRecord(ctx, id); err != nil {
			return false, err
		}
		if rec.Status != StatusCredited {
			return false, fmt.Errorf("deposit %s: credited but its record is %s", id, rec.Status)
		}
	case err != nil:
		return false, err
	default:
		rec.Status, rec.Confirmations, rec.Credited = StatusCredited, rec.Required, now.UnixMilli()
	}
	s.o.Log.Info().Str("deposit", id).Str("coin", rec.Coin).Str("amount", rec.Amount.String()).Msg("deposit credited")
	s.notify(ctx, rec)
	return true, nil
}

func (s *Service) getRecord(ctx context.Context, id string) (Record, error) {
	it, err := s.o.Store.Get(ctx, depositKey(id))
	if err != nil {
		return Record{}, err
	}
	return recordOf(it), nil
}

// Watcher scans a chain source and feeds Observe.
type Watcher struct {
	svc  *Service
	src  ChainSource
	poll time.Duration
	wake chan struct{}

	mu     sync.Mutex
	scanMu sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// NewWatcher returns a watcher of src for the service (poll 0 means 1 s).
func (s *Service) NewWatcher(src ChainSource, poll time.Duration) *Watcher {
	if poll <= 0 {
		poll = time.Second
	}
	return &Watcher{svc: s, src: src, poll: poll, wake: make(chan struct{}, 1)}
}

// Scan looks at every open incoming transfer of every chain once.
func (w *Watcher) Scan(ctx context.Context) error {
	w.scanMu.Lock()
	defer w.scanMu.Unlock()
	var errs []error
	for _, c := range w.src.Chains() {
		head, err := w.src.Head(ctx, c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		open, err := w.src.OpenIncoming(ctx, c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, t := range open {
			final, err := w.svc.Observe(ctx, t, head)
			if err != nil {
				errs = append(errs, fmt.Errorf("deposit %s: %w", t.TxID, err))
				continue
			}
			if final {
				if err := w.src.CloseIncoming(ctx, c, t.TxID); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// Kick makes a started watcher scan now.
func (w *Watcher) Kick() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Start scans in a goroutine until Stop.
func (w *Watcher) Start(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cancel != nil {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	w.cancel, w.done = cancel, make(chan struct{})
	done := w.done
	go func() {
		defer close(done)
		t := time.NewTicker(w.poll)
		defer t.Stop()
		for {
			if err := w.Scan(ctx); err != nil && ctx.Err() == nil {
				w.svc.o.Log.Warn().Err(err).Msg("deposit watcher")
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-w.wake:
			}
		}
	}()
}

// Stop ends the goroutine.
func (w *Watcher) Stop() {
	w.mu.Lock()
	cancel, done := w.cancel, w.done
	w.cancel, w.done = nil, nil
	w.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

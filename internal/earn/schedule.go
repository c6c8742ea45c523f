package earn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// RunReport says what a daily run did.
type RunReport struct {
	// Positions is how many due positions the run worked on.
	Positions int `json:"positions"`
	// Settled is how many position-days and stake-days it settled
	// (interest or rewards paid, or nothing to pay).
	Settled int64 `json:"settled"`
	// AutoSubscribed is how many auto-subscriptions it made.
	AutoSubscribed int64 `json:"autoSubscribed"`
	// Stakes is how many due stakes it worked on.
	Stakes int `json:"stakes"`
	// Launchpads is how many sales it allocated and distributed.
	Launchpads int `json:"launchpads"`
	// Loans is how many loans it accrued, checked or liquidated.
	Loans int `json:"loans"`
}

// Workers is how many positions a run works on at once (their postings
// are committed together by the ledger's batches).
const Workers = 64

// RunDue is the daily run of savings and staking: every savings position
// with a day before today not yet settled is settled through yesterday
// (interest paid, standard redemptions paid out), then each position with
// auto-subscribe on sweeps the user's available spot balance in; every
// stake is settled the same way (rewards, maturity). Positions and stakes
// are found by their due indexes, so a run does only what is due: running
// it again, or after a crash half way, pays nobody twice (each day's
// posting is keyed by product or stake, user and day, and the item's
// version guards it). It stops at ctx's end; the next run goes on. Run it
// every few minutes: it finds nothing to do on most.
func (s *Service) RunDue(ctx context.Context) (RunReport, error) {
	var rep RunReport
	products, err := s.SavingsProducts(ctx)
	if err != nil {
		return rep, err
	}
	byID := map[string]product{}
	for _, p := range products {
		pr, err := s.productOf(p)
		if err != nil {
			s.log.Error().Err(err).Msg("savings product left out of the daily run")
			continue
		}
		byID[p.ID] = pr
	}
	stakings, err := s.StakingProducts(ctx)
	if err != nil {
		return rep, err
	}
	stakeProducts := map[string]stakingProduct{}
	for _, p := range stakings {
		pr, err := s.stakingOf(p)
		if err != nil {
			s.log.Error().Err(err).Msg("staking product left out of the daily run")
			continue
		}
		stakeProducts[p.ID] = pr
	}
	today := DayOf(s.now())
	var settled, autos atomic.Int64
	n, err1 := s.scanDue(ctx, duePK, today, func(k store.Key) error {
		n, a, err := s.runPosition(ctx, k, byID, today)
		settled.Add(n)
		if a {
			autos.Add(1)
		}
		return err
	})
	rep.Positions += n
	n, err2 := s.scanDue(ctx, stakeDuePK, today, func(k store.Key) error {
		n, err := s.runStake(ctx, k, stakeProducts, today)
		settled.Add(n)
		return err
	})
	rep.Stakes = n
	rep.Settled, rep.AutoSubscribed = settled.Load(), autos.Load()
	var err3, err4 error
	rep.Launchpads, err3 = s.RunLaunchpads(ctx)
	if s.prices != nil {
		rep.Loans, err4 = s.RunLoans(ctx)
	}
	return rep, errors.Join(err1, err2, err3, err4)
}

// scanDue hands every item of a due index (gsi2 partitions pk(0..15),
// sort keys "<day>#...") whose day is before yesterday to fn, on Workers
// goroutines, and returns how many it handed over.
func (s *Service) scanDue(ctx context.Context, pk func(int) string, today Day, fn func(store.Key) error) (int, error) {
	keys := make(chan store.Key, Workers*4)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				if err := fn(k); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	cut := fmt.Sprintf("%07d", today-1)
	n := 0
scan:
	for shard := range shards {
		q := store.Query{Index: store.IndexGSI2, PK: pk(shard), SK: store.SKCond{Kind: store.SKLt, A: cut}, Limit: 500}
		for {
			page, err := s.st.Query(ctx, q)
			if err != nil {
				errs = append(errs, err)
				break scan
			}
			for _, it := range page.Items {
				select {
				case keys <- it.Key():
					n++
				case <-ctx.Done():
					break scan
				}
			}
			if page.Cursor == "" {
				break
			}
			q.Cursor = page.Cursor
		}
	}
	close(keys)
	wg.Wait()
	return n, errors.Join(append(errs, ctx.Err())...)
}

// runPosition settles one position through yesterday and runs its
// auto-subscribe; it returns the days settled and whether it subscribed.
func (s *Service) runPosition(ctx context.Context, k store.Key, products map[string]product, today Day) (int64, bool, error) {
	prodID := productOfKey(k.SK)
	pr, ok := products[prodID]
	if !ok {
		return 0, false, nil
	}
	var n int64
	for range maxAttempts {
		if ctx.Err() != nil {
			return n, false, nil
		}
		it, err := s.st.Get(ctx, k)
		if errors.Is(err, store.ErrNotFound) {
			return n, false, nil
		}
		if err != nil {
			return n, false, err
		}
		p := positionOf(it)
		before := p.paid
		err = s.settleThrough(ctx, p, pr, today-1)
		n += p.paid - before
		if errors.Is(err, errStale) {
			continue
		}
		if err != nil {
			return n, false, err
		}
		if !p.auto || p.autoDay >= today-1 {
			return n, false, nil
		}
		subscribed, err := s.autoSubscribe(ctx, p, pr, today)
		if errors.Is(err, errStale) {
			continue
		}
		return n, subscribed, err
	}
	return n, false, fmt.Errorf("earn: position %s/%s kept changing during the daily run", k.PK, prodID)
}

// autoSubscribe sweeps the user's available spot balance of the coin into
// the product (within its cap and above its minimum), once a day: its
// request id names the day, so a repeated run finds it done.
func (s *Service) autoSubscribe(ctx context.Context, p *position, pr product, today Day) (bool, error) {
	subscribed := false
	if pr.Open {
		b, err := s.led.Balance(ctx, ledger.UserAccount(p.uid, ledger.Spot), pr.Coin)
		if err != nil {
			return false, err
		}
		amount := coins.TruncateToPrecision(b.Available, pr.coin.Precision)
		u, err := units(amount, pr.coin.Precision)
		if err != nil {
			return false, err
		}
		if left, err := capLeft(pr, p); err != nil {
			return false, err
		} else if left >= 0 {
			u = min(u, left)
		}
		least, _ := units(pr.MinAmount, pr.coin.Precision)
		if u > 0 && u >= least {
			_, err := s.Subscribe(ctx, p.uid, SubscribeInput{Product: pr.ID, Amount: fixed(u, pr.coin.Precision),
				RequestID: fmt.Sprintf("auto-%s-%d", pr.ID, today)})
			switch {
			case err == nil:
				subscribed = true
			case isRefusal(err):
				// The balance moved (an order, a withdrawal) since it was
				// read: nothing is swept today.
			default:
				return false, err
			}
		}
	}
	// Marked done for the day on the position as it is now.
	cur, err := s.loadPosition(ctx, p.uid, p.prod)
	if err != nil {
		return subscribed, err
	}
	if !cur.auto || cur.autoDay >= today-1 {
		return subscribed, nil
	}
	if cur.paid != today-1 {
		return subscribed, errStale
	}
	cur.autoDay = today - 1
	if err := s.st.Put(ctx, cur.item(), store.VersionIs(cur.ver)); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return subscribed, errStale
		}
		return subscribed, err
	}
	return subscribed, nil
}

// isRefusal says a subscription was refused for the user's reasons (a
// short balance, the cap), not failed.
func isRefusal(err error) bool {
	var ae *apperr.Error
	return errors.As(err, &ae) && ae.Entry.Code != apperr.CodeInternal
}

// StartScheduler runs RunDue and Resume every interval until ctx ends
// (tenger serve; in AWS an EventBridge schedule invokes the earn
// function's run instead). It logs what each run did when it did
// anything.
func (s *Service) StartScheduler(ctx context.Context, every time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if n, err := s.Resume(ctx); n > 0 || err != nil {
				s.log.Info().Int("finished", n).AnErr("err", err).Msg("earn ops resumed")
			}
			rep, err := s.RunDue(ctx)
			if rep.Positions > 0 || (err != nil && ctx.Err() == nil) {
				s.log.Info().Int("positions", rep.Positions).Int64("settled", rep.Settled).Int64("auto", rep.AutoSubscribed).
					AnErr("err", err).Msg("savings daily run")
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { cancel(); <-done }
}

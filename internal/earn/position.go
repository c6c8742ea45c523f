package earn

import (
	"fmt"
	"strings"

	"tenger/internal/store"
)

// A savings position is one user's holding in one product, in the coin's
// smallest units. Its money is in the user's earn account: the available
// balance of the coin is what savings hold less what waits for a standard
// redemption, which is frozen (the frozen balance also holds the coin's
// stakes, staking.go); the position says which part earns:
//
//	amt    everything held (= the earn balance of the coin)
//	elig   the part earning today: held since before today began
//	fresh  subscribed on freshDay, earning from the day after
//	red    waiting for a standard redemption asked on redDay: it earns
//	       that day and is paid out with the day's interest when the day
//	       is settled
//	paid   the last day settled: every day up to it is paid, once
//
// Before any change on day T, every day before T is settled (settle.go),
// so a change always works on the state of day T. A day's interest is
// DailyInterest(elig) at the end of the day; it is added to elig, earning
// from the next day.
type position struct {
	uid, prod string
	amt, elig int64
	fresh     int64
	freshDay  Day
	red       int64
	redDay    Day
	paid      Day
	// tot is the interest paid so far; last the latest day's, on lastDay.
	tot, last int64
	lastDay   Day
	auto      bool
	// autoDay is the last day after whose settlement auto-subscribe ran.
	autoDay Day
	ver     int64
}

func positionKey(uid, prod string) store.Key {
	return store.Key{PK: earnPK(uid), SK: "SAV#" + prod}
}

func earnPK(uid string) string { return "EARN#" + uid }

// duePK is the partition of the due index (gsi2) a position is in.
func duePK(shard int) string { return fmt.Sprintf("SAVDUE#%02d", shard) }

// dueDay is the day a position's index entry sorts by: the last day it
// was settled, or the last its auto-subscribe ran when that is older. A
// position is due once that day is before yesterday.
func (p *position) dueDay() Day {
	d := p.paid
	if p.auto && p.autoDay < d {
		d = p.autoDay
	}
	return d
}

// idle says nothing in the position needs the daily run.
func (p *position) idle() bool { return p.amt == 0 && p.red == 0 && !p.auto }

// redeemable is what a redemption may take now.
func (p *position) redeemable() int64 { return p.amt - p.red }

// newPosition is the position of a user with none yet: nothing before
// yesterday to settle.
func newPosition(uid, prod string, today Day) *position {
	return &position{uid: uid, prod: prod, paid: today - 1, freshDay: today - 1, redDay: today - 1, autoDay: today - 1, lastDay: today - 1}
}

func (p *position) item() store.Item {
	k := positionKey(p.uid, p.prod)
	it := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": p.uid, "prod": p.prod,
		"amt": p.amt, "elig": p.elig, "fresh": p.fresh, "freshDay": p.freshDay, "red": p.red, "redDay": p.redDay,
		"paid": p.paid, "tot": p.tot, "last": p.last, "lastDay": p.lastDay, "autoDay": p.autoDay,
		store.AttrVersion: p.ver + 1,
	}
	if p.auto {
		it["auto"] = int64(1)
	}
	if !p.idle() {
		it[store.AttrGSI2PK] = duePK(shardOf(p.uid, p.prod))
		it[store.AttrGSI2SK] = fmt.Sprintf("%07d#%s#%s", p.dueDay(), p.uid, p.prod)
	}
	return it
}

// putOp writes the position if nobody changed it since it was read.
func (p *position) putOp() store.Op { return store.PutOp(p.item(), store.VersionIs(p.ver)) }

func positionOf(it store.Item) *position {
	return &position{
		uid: it.Str("uid"), prod: it.Str("prod"),
		amt: it.Int("amt"), elig: it.Int("elig"), fresh: it.Int("fresh"), freshDay: it.Int("freshDay"),
		red: it.Int("red"), redDay: it.Int("redDay"), paid: it.Int("paid"), tot: it.Int("tot"), last: it.Int("last"),
		lastDay: it.Int("lastDay"), auto: it.Int("auto") == 1, autoDay: it.Int("autoDay"), ver: it.Int(store.AttrVersion),
	}
}

// check asserts the position's invariants (a violation is a bug: the
// change is refused rather than written).
func (p *position) check() error {
	switch {
	case p.amt < 0 || p.elig < 0 || p.fresh < 0 || p.red < 0:
		return fmt.Errorf("earn: position %s/%s: negative amount", p.uid, p.prod)
	case p.elig+p.fresh != p.amt:
		return fmt.Errorf("earn: position %s/%s: earning %d + fresh %d != held %d", p.uid, p.prod, p.elig, p.fresh, p.amt)
	case p.red > p.amt:
		return fmt.Errorf("earn: position %s/%s: redeeming %d > held %d", p.uid, p.prod, p.red, p.amt)
	}
	return nil
}

// productOfKey reads the product id of a position's sort key.
func productOfKey(sk string) string { return strings.TrimPrefix(sk, "SAV#") }

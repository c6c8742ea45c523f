package binance

import (
	"sync"
	"time"
)

// Request weight limits, as Binance's REQUEST_WEIGHT: each IP may use
// WeightLimit weight per minute (fixed windows aligned on the minute).
// The request that goes over answers 429 with Retry-After, the seconds
// until the minute ends; every later one in that minute answers 429 too,
// and once an IP has had BanAfter of them it is banned (418, Retry-After
// the seconds until the ban ends). Bans last 2 minutes and double with
// each new ban of the same IP up to 3 days; an IP's bans are forgotten a
// day after its last one ended.
const (
	DefaultWeightLimit = 6000
	DefaultBanAfter    = 10
	firstBan           = 2 * time.Minute
	maxBan             = 72 * time.Hour
	banMemory          = 24 * time.Hour
)

type weightWindow struct {
	used     int
	rejected int // 429s answered this minute
}

type banRecord struct {
	until    time.Time
	offences int
}

// limiter keeps the counters of the current minute only, and the bans;
// both are swept when the minute changes.
type limiter struct {
	limit    int
	banAfter int

	mu     sync.Mutex
	minute int64 // Unix minute of the counters
	used   map[string]*weightWindow
	bans   map[string]*banRecord
}

func newLimiter(limit, banAfter int) *limiter {
	return &limiter{limit: limit, banAfter: banAfter, minute: -1, used: map[string]*weightWindow{},
		bans: map[string]*banRecord{}}
}

// verdict is the outcome of charging a request.
type verdict struct {
	used int    // weight used by the IP this minute, this request included
	err  *Error // nil, or the 429 / 418 answer
}

func (l *limiter) roll(now time.Time) {
	m := now.Unix() / 60 // times before 1970 are not served
	if m == l.minute {
		return
	}
	l.minute = m
	l.used = map[string]*weightWindow{}
	for ip, b := range l.bans {
		if now.After(b.until.Add(banMemory)) {
			delete(l.bans, ip)
		}
	}
}

// charge adds a request's weight to its IP's minute.
func (l *limiter) charge(ip string, weight int, now time.Time) verdict {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.roll(now)
	w := l.used[ip]
	if w == nil {
		w = &weightWindow{}
		l.used[ip] = w
	}
	if b := l.bans[ip]; b != nil && now.Before(b.until) {
		return verdict{used: w.used, err: errBanned(b.until.UnixMilli(), ceilSeconds(b.until.Sub(now)))}
	}
	w.used += weight
	if w.used <= l.limit {
		return verdict{used: w.used}
	}
	if l.banAfter >= 0 && w.rejected >= l.banAfter {
		b := l.bans[ip]
		if b == nil {
			b = &banRecord{}
			l.bans[ip] = b
		}
		b.offences++
		d := firstBan
		for i := 1; i < b.offences && d < maxBan; i++ {
			d *= 2
		}
		d = min(d, maxBan)
		b.until = now.Add(d)
		w.rejected = 0
		return verdict{used: w.used, err: errBanned(b.until.UnixMilli(), ceilSeconds(d))}
	}
	w.rejected++
	end := time.Unix((l.minute+1)*60, 0)
	return verdict{used: w.used, err: errWeightLimit(l.limit, ceilSeconds(end.Sub(now)))}
}

// usedBy is the weight an IP used this minute.
func (l *limiter) usedBy(ip string, now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.roll(now)
	if w := l.used[ip]; w != nil {
		return w.used
	}
	return 0
}

// tracked is how many IPs and bans are held (tests check the sweep).
func (l *limiter) tracked() (ips, bans int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.used), len(l.bans)
}

func ceilSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

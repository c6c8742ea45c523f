package auth

import (
	"sync"
	"time"
)

// SessionCacheTTL is how long a resolved session is trusted without reading
// the store again. Every API call resolves its session, and the two
// strongly consistent reads (session and profile) were the largest cost of
// a small call such as placing an order.
//
// Revocation stays effective: in this process a logout, a password change
// and a password reset drop the cached entries at once (and a resolution
// that raced with them is not cached). Another process (a second Lambda
// instance) sees a revocation made elsewhere within SessionCacheTTL.
const SessionCacheTTL = 2 * time.Second

// sessionCacheMax bounds the cache; past it expired entries are dropped,
// and if that is not enough the cache starts over.
const sessionCacheMax = 100_000

// sessionCache maps a session's hash to its user for SessionCacheTTL.
type sessionCache struct {
	mu sync.Mutex
	// epoch is raised by every revocation. A resolution caches its result
	// only if no revocation happened since it began reading, so a session
	// read just before a password change commits is never cached afterwards.
	epoch uint64
	m     map[string]cachedSession
}

type cachedSession struct {
	uid string
	// expiresMs is the session's own expiry; until is the cache deadline.
	expiresMs int64
	until     time.Time
}

// get returns the user of a cached, unexpired session.
func (c *sessionCache) get(hash string, now time.Time) (string, bool) {
	c.mu.Lock()
	e, ok := c.m[hash]
	c.mu.Unlock()
	if !ok || !now.Before(e.until) || e.expiresMs <= now.UnixMilli() {
		return "", false
	}
	return e.uid, true
}

// begin returns the epoch to hand to put after reading the store.
func (c *sessionCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// put caches a session read since begin returned epoch, unless a
// revocation came in between.
func (c *sessionCache) put(hash, uid string, expiresMs int64, now time.Time, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch != c.epoch {
		return
	}
	if c.m == nil {
		c.m = map[string]cachedSession{}
	}
	if len(c.m) >= sessionCacheMax {
		for k, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= sessionCacheMax {
			clear(c.m)
		}
	}
	c.m[hash] = cachedSession{uid: uid, expiresMs: expiresMs, until: now.Add(SessionCacheTTL)}
}

// revoke forgets one session.
func (c *sessionCache) revoke(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.m, hash)
}

// revokeUser forgets every session of a user (a password change or reset
// ended them). It walks the cache: revocations are rare.
func (c *sessionCache) revokeUser(uid string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	for k, e := range c.m {
		if e.uid == uid {
			delete(c.m, k)
		}
	}
}

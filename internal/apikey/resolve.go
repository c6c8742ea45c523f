package apikey

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/netip"
	"time"

	"tenger/internal/store"
)

// ErrUnknownKey is Resolve's answer for a key that does not exist (never
// made, or deleted).
var ErrUnknownKey = errors.New("apikey: unknown key")

// Resolved is what a signed request needs of its key.
type Resolved struct {
	APIKey      string
	UserID      string
	Permissions []string
	KeyType     string
	// nets is the IP restriction (empty: any address).
	nets []netip.Prefix
	// secret is the opened HMAC secret; public the Ed25519 public key.
	secret []byte
	public ed25519.PublicKey
}

// Can reports whether the key carries a permission.
func (r Resolved) Can(perm string) bool { return has(r.Permissions, perm) }

// Restricted reports whether the key is bound to IP addresses.
func (r Resolved) Restricted() bool { return len(r.nets) > 0 }

// AllowsIP reports whether a request from ip may use the key: always when
// it has no IP restriction, otherwise when ip is inside one of its
// addresses or ranges. An IPv4 address written as IPv6 (::ffff:a.b.c.d)
// is taken as the IPv4 address.
func (r Resolved) AllowsIP(ip string) bool {
	if len(r.nets) == 0 {
		return true
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, n := range r.nets {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// Verify checks a request's signature over payload: for an HMAC key the
// hex HMAC-SHA256 (either case), for an Ed25519 key the base64 signature,
// as Binance signs.
func (r Resolved) Verify(payload, signature string) bool {
	switch r.KeyType {
	case TypeHMAC:
		want, err := hex.DecodeString(signature)
		if err != nil || len(want) != sha256.Size || len(r.secret) == 0 {
			return false
		}
		m := hmac.New(sha256.New, r.secret)
		m.Write([]byte(payload))
		return hmac.Equal(m.Sum(nil), want)
	case TypeEd25519:
		sig, err := base64.StdEncoding.DecodeString(signature)
		if err != nil || len(sig) != ed25519.SignatureSize || len(r.public) != ed25519.PublicKeySize {
			return false
		}
		return ed25519.Verify(r.public, []byte(payload), sig)
	}
	return false
}

// Resolve reads a key for a signed request: ErrUnknownKey when there is no
// such key. Keys are cached for CacheTTL; changes in this process drop
// them at once.
func (s *Service) Resolve(ctx context.Context, apiKey string) (Resolved, error) {
	if !validToken(apiKey) {
		return Resolved{}, ErrUnknownKey
	}
	now := s.o.Now()
	s.mu.Lock()
	c, ok := s.cache[apiKey]
	epoch := s.epoch
	s.mu.Unlock()
	if ok && now.Before(c.until) {
		return c.r, nil
	}
	it, err := s.o.Store.Get(ctx, lookupKey(apiKey))
	if errors.Is(err, store.ErrNotFound) {
		return Resolved{}, ErrUnknownKey
	}
	if err != nil {
		return Resolved{}, internal(err)
	}
	r, err := s.resolved(apiKey, it)
	if err != nil {
		return Resolved{}, internal(err)
	}
	if s.o.CacheTTL > 0 {
		s.mu.Lock()
		if s.epoch == epoch {
			if len(s.cache) >= 100_000 {
				s.cache = map[string]cachedKey{}
			}
			s.cache[apiKey] = cachedKey{r: r, until: now.Add(s.o.CacheTTL)}
		}
		s.mu.Unlock()
	}
	return r, nil
}

func (s *Service) resolved(apiKey string, it store.Item) (Resolved, error) {
	k := keyOf(it)
	r := Resolved{APIKey: apiKey, UserID: it.Str(attrUID), Permissions: k.Permissions, KeyType: k.KeyType}
	for _, ip := range k.IPs {
		p, err := parsePrefix(ip)
		if err != nil {
			return Resolved{}, err
		}
		r.nets = append(r.nets, p)
	}
	switch k.KeyType {
	case TypeHMAC:
		secret, err := s.o.Sealer.Open(it.Str(attrSecret))
		if err != nil {
			return Resolved{}, err
		}
		r.secret = []byte(secret)
	case TypeEd25519:
		pub, err := ParseEd25519PublicKey(it.Str(attrPublic))
		if err != nil {
			return Resolved{}, err
		}
		r.public = pub
	default:
		return Resolved{}, errors.New("unknown key type " + k.KeyType)
	}
	return r, nil
}

// forget drops a key from the cache and stops reads in flight from
// caching what they read.
func (s *Service) forget(apiKey string) {
	s.mu.Lock()
	s.epoch++
	delete(s.cache, apiKey)
	s.mu.Unlock()
}

// Touch records that a key signed a request: written at most once per
// TouchEvery per key and process, on the owner's item only while it
// exists (a touch never brings a deleted key back). Errors are logged: a
// missed last-use time must not fail the request.
func (s *Service) Touch(ctx context.Context, r Resolved) {
	now := s.o.Now()
	s.mu.Lock()
	last, seen := s.touched[r.APIKey]
	if seen && now.Sub(last) < s.o.TouchEvery {
		s.mu.Unlock()
		return
	}
	if len(s.touched) >= 100_000 {
		s.touched = map[string]time.Time{}
	}
	s.touched[r.APIKey] = now
	s.mu.Unlock()
	_, err := s.o.Store.Update(ctx, ownerKey(r.UserID, r.APIKey), store.NewUpdate().Set(attrUsed, now.UnixMilli()), store.ItemExists())
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		s.o.Log.Warn().Err(err).Str("apiKey", shortKey(r.APIKey)).Msg("api key: last use not recorded")
	}
}

// Owner is the user of an API key, read without opening its secret (a
// reader that only needs to know whether the key still exists: the stream
// function's user data subscriptions); ErrUnknownKey when it does not.
func Owner(ctx context.Context, st store.Store, apiKey string) (string, error) {
	it, err := st.Get(ctx, lookupKey(apiKey))
	if errors.Is(err, store.ErrNotFound) {
		return "", ErrUnknownKey
	}
	if err != nil {
		return "", err
	}
	return it.Str(attrUID), nil
}

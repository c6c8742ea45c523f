// Package apikey keeps the API keys bots and tools sign the
// Binance-compatible API with (internal/binance): creating, changing,
// listing and deleting a user's keys, and resolving a key on every signed
// request (its owner, permissions, IP restriction and the secret or public
// key its signatures are checked with).
//
// An HMAC key's secret is generated here, shown once and stored sealed
// (auth.Sealer): the server must be able to check signatures with it, so it
// is sealed, not hashed. An Ed25519 key has no secret: the user keeps the
// private key and gives the public key.
//
// Items (one transaction for each change):
//
//	APIKEY#<apiKey> / APIKEY            the key, read by Resolve
//	USER#<uid>      / APIKEY#<apiKey>   the same key in its owner's partition (List)
//	USER#<uid>      / APIKEYCOUNT       the number of the user's keys (at most MaxKeys)
package apikey

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
)

// Permissions a key may carry. PermRead is implied: every key reads.
const (
	PermRead     = "read"
	PermSpot     = "spot"
	PermMargin   = "margin"
	PermFutures  = "futures"
	PermWithdraw = "withdraw"
)

// permOrder is the order permissions are kept and shown in.
var permOrder = []string{PermRead, PermSpot, PermMargin, PermFutures, PermWithdraw}

// Key types, named as Binance names them.
const (
	TypeHMAC    = "HMAC_SHA256"
	TypeEd25519 = "ED25519"
)

// Limits.
const (
	MaxKeys     = 30
	MaxLabelLen = 32
	MaxIPs      = 30
	// KeyLen is the length of an API key and of an HMAC secret.
	KeyLen = 64
)

// Key is a key as its owner sees it (never with its secret).
type Key struct {
	APIKey      string   `json:"apiKey"`
	Label       string   `json:"label"`
	Permissions []string `json:"permissions"`
	IPs         []string `json:"ips"`
	KeyType     string   `json:"keyType"`
	CreatedAt   int64    `json:"createdAt"`
	LastUsedAt  int64    `json:"lastUsedAt"`
}

// Created is a new key with its secret, which is never shown again
// ("" for an Ed25519 key).
type Created struct {
	Key
	SecretKey string `json:"secretKey"`
}

// Codes are the verification codes a create or an update carries.
type Codes = auth.Codes

// Input is what create and update take.
type Input struct {
	Label       string
	Permissions []string
	IPs         []string
	// PublicKey (create only) makes an Ed25519 key: the PEM public key.
	PublicKey string
	Codes     Codes
}

// Auth is what the service needs of the accounts service.
type Auth interface {
	User(ctx context.Context, uid string) (auth.User, error)
	VerifyAll(ctx context.Context, uid string, factors ...auth.Factor) error
}

// Options configure a Service.
type Options struct {
	Store  store.Store
	Auth   Auth
	Sealer auth.Sealer
	Now    func() time.Time
	Log    zerolog.Logger
	// CacheTTL is how long Resolve trusts a key it read without reading it
	// again. A change or a delete in this process drops the cached key at
	// once; another process (a second Lambda instance) sees it after at
	// most CacheTTL, so the AWS runtime sets 0 (read on every request).
	CacheTTL time.Duration
	// TouchEvery is how often a key's last use is written (default 1 min).
	TouchEvery time.Duration
}

// Service manages and resolves API keys.
type Service struct {
	o     Options
	mu    sync.Mutex
	cache map[string]cachedKey
	// epoch is raised by every change; a read that began before a change
	// is not cached after it (so a delete racing a resolve cannot leave
	// the deleted key in the cache).
	epoch   uint64
	touched map[string]time.Time
}

type cachedKey struct {
	r     Resolved
	until time.Time
}

// New returns a Service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TouchEvery <= 0 {
		o.TouchEvery = time.Minute
	}
	return &Service{o: o, cache: map[string]cachedKey{}, touched: map[string]time.Time{}}
}

func lookupKey(apiKey string) store.Key { return store.Key{PK: "APIKEY#" + apiKey, SK: "APIKEY"} }
func ownerKey(uid, apiKey string) store.Key {
	return store.Key{PK: "USER#" + uid, SK: "APIKEY#" + apiKey}
}
func countKey(uid string) store.Key { return store.Key{PK: "USER#" + uid, SK: "APIKEYCOUNT"} }

const (
	attrUID     = "uid"
	attrLabel   = "label"
	attrPerms   = "perms"
	attrIPs     = "ips"
	attrType    = "keyType"
	attrSecret  = "secret" // sealed HMAC secret
	attrPublic  = "publicKey"
	attrCreated = "createdAt"
	attrUsed    = "lastUsedAt"
	attrCount   = "n"
)

// Create makes a key for uid after checking the input and the codes.
func (s *Service) Create(ctx context.Context, uid string, in Input) (Created, error) {
	label, perms, ips, err := checkInput(in)
	if err != nil {
		return Created{}, err
	}
	typ, public := TypeHMAC, ""
	if strings.TrimSpace(in.PublicKey) != "" {
		if _, err := ParseEd25519PublicKey(in.PublicKey); err != nil {
			return Created{}, err
		}
		typ, public = TypeEd25519, strings.TrimSpace(in.PublicKey)
	}
	if n, err := s.count(ctx, uid); err != nil {
		return Created{}, err
	} else if n >= MaxKeys {
		return Created{}, apperr.New(apperr.CodeAPIKeyTooMany, MaxKeys)
	}
	if err := s.checkCodes(ctx, uid, in.Codes); err != nil {
		return Created{}, err
	}
	k := Key{APIKey: randomToken(KeyLen), Label: label, Permissions: perms, IPs: ips, KeyType: typ,
		CreatedAt: s.o.Now().UnixMilli()}
	secret := ""
	it := itemOf(uid, k)
	if typ == TypeHMAC {
		secret = randomToken(KeyLen)
		it[attrSecret] = s.o.Sealer.Seal(secret)
	} else {
		it[attrPublic] = public
	}
	lk, ok := ownerKey(uid, k.APIKey), lookupKey(k.APIKey)
	lookup, owned := it.Clone(), it.Clone()
	lookup[store.AttrPK], lookup[store.AttrSK] = lk.PK, lk.SK
	owned[store.AttrPK], owned[store.AttrSK] = ok.PK, ok.SK
	err = s.o.Store.Transact(ctx, []store.Op{
		store.PutOp(lookup, store.ItemNotExists()),
		store.PutOp(owned, store.ItemNotExists()),
		store.UpdateOp(countKey(uid), store.NewUpdate().AddInt(attrCount, 1),
			store.Or(store.NotExists(attrCount), store.Compare(attrCount, store.CmpLt, MaxKeys))),
	})
	var tx *store.TxCanceledError
	switch {
	case errors.As(err, &tx) && tx.Index == 2:
		return Created{}, apperr.New(apperr.CodeAPIKeyTooMany, MaxKeys)
	case err != nil:
		return Created{}, internal(err)
	}
	s.o.Log.Info().Str("uid", uid).Str("apiKey", shortKey(k.APIKey)).Strs("permissions", perms).
		Int("ips", len(ips)).Str("keyType", typ).Msg("api key created")
	return Created{Key: k, SecretKey: secret}, nil
}

// Update changes a key's label, permissions and IPs after checking the
// input and the codes.
func (s *Service) Update(ctx context.Context, uid, apiKey string, in Input) (Key, error) {
	label, perms, ips, err := checkInput(in)
	if err != nil {
		return Key{}, err
	}
	cur, err := s.owned(ctx, uid, apiKey)
	if err != nil {
		return Key{}, err
	}
	if err := s.checkCodes(ctx, uid, in.Codes); err != nil {
		return Key{}, err
	}
	upd := func() *store.Update {
		return store.NewUpdate().Set(attrLabel, label).Set(attrPerms, strings.Join(perms, ",")).
			Set(attrIPs, strings.Join(ips, ","))
	}
	s.forget(apiKey)
	err = s.o.Store.Transact(ctx, []store.Op{
		store.UpdateOp(lookupKey(apiKey), upd(), store.Eq(attrUID, uid)),
		store.UpdateOp(ownerKey(uid, apiKey), upd(), store.ItemExists()),
	})
	s.forget(apiKey)
	if errors.Is(err, store.ErrConditionFailed) {
		return Key{}, apperr.New(apperr.CodeAPIKeyNotFound) // deleted meanwhile
	}
	if err != nil {
		return Key{}, internal(err)
	}
	cur.Label, cur.Permissions, cur.IPs = label, perms, ips
	s.o.Log.Info().Str("uid", uid).Str("apiKey", shortKey(apiKey)).Strs("permissions", perms).
		Int("ips", len(ips)).Msg("api key changed")
	return cur, nil
}

// Delete removes a key; it stops working at once in this process (and
// within CacheTTL in others).
func (s *Service) Delete(ctx context.Context, uid, apiKey string) error {
	if _, err := s.owned(ctx, uid, apiKey); err != nil {
		return err
	}
	s.forget(apiKey)
	err := s.o.Store.Transact(ctx, []store.Op{
		store.DeleteOp(lookupKey(apiKey), store.Eq(attrUID, uid)),
		store.DeleteOp(ownerKey(uid, apiKey), store.ItemExists()),
		store.UpdateOp(countKey(uid), store.NewUpdate().AddInt(attrCount, -1), store.Compare(attrCount, store.CmpGt, 0)),
	})
	s.forget(apiKey)
	if errors.Is(err, store.ErrConditionFailed) {
		return apperr.New(apperr.CodeAPIKeyNotFound) // deleted by a concurrent call
	}
	if err != nil {
		return internal(err)
	}
	s.o.Log.Info().Str("uid", uid).Str("apiKey", shortKey(apiKey)).Msg("api key deleted")
	return nil
}

// List returns the user's keys, newest first.
func (s *Service) List(ctx context.Context, uid string) ([]Key, error) {
	var out []Key
	q := store.Query{PK: "USER#" + uid, SK: store.SKPrefixed("APIKEY#"), Limit: 100}
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, internal(err)
		}
		for _, it := range page.Items {
			out = append(out, keyOf(it))
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CreatedAt != out[j].CreatedAt {
			return out[i].CreatedAt > out[j].CreatedAt
		}
		return out[i].APIKey < out[j].APIKey
	})
	return out, nil
}

// owned reads one key of the user.
func (s *Service) owned(ctx context.Context, uid, apiKey string) (Key, error) {
	if !validToken(apiKey) {
		return Key{}, apperr.New(apperr.CodeAPIKeyNotFound)
	}
	it, err := s.o.Store.Get(ctx, ownerKey(uid, apiKey))
	if errors.Is(err, store.ErrNotFound) {
		return Key{}, apperr.New(apperr.CodeAPIKeyNotFound)
	}
	if err != nil {
		return Key{}, internal(err)
	}
	return keyOf(it), nil
}

func (s *Service) count(ctx context.Context, uid string) (int64, error) {
	it, err := s.o.Store.Get(ctx, countKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, internal(err)
	}
	return it.Int(attrCount), nil
}

// checkCodes asks for the codes a withdrawal asks for
// (auth.VerifyWithdrawalCodes): the SMS code under operationType 11, the
// e-mail code under 17.
func (s *Service) checkCodes(ctx context.Context, uid string, c Codes) error {
	u, err := s.o.Auth.User(ctx, uid)
	if err != nil {
		return err
	}
	return auth.VerifyWithdrawalCodes(ctx, s.o.Auth, u, c, auth.OpSecurity, auth.OpWithdrawEmail)
}

// checkInput normalises and checks a label, permissions and IPs.
func checkInput(in Input) (label string, perms, ips []string, err error) {
	label = strings.TrimSpace(in.Label)
	if n := utf8.RuneCountInString(label); n == 0 || n > MaxLabelLen || !printable(label) {
		return "", nil, nil, apperr.New(apperr.CodeAPIKeyLabel, MaxLabelLen)
	}
	if perms, err = normPerms(in.Permissions); err != nil {
		return "", nil, nil, err
	}
	if ips, err = NormIPs(in.IPs); err != nil {
		return "", nil, nil, err
	}
	if has(perms, PermWithdraw) && len(ips) == 0 {
		return "", nil, nil, apperr.New(apperr.CodeAPIKeyWithdrawNeedsIP)
	}
	return label, perms, ips, nil
}

func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// normPerms returns the known permissions given, read always among them,
// in permOrder.
func normPerms(in []string) ([]string, error) {
	set := map[string]bool{PermRead: true}
	for _, p := range in {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "" {
			continue
		}
		if !has(permOrder, p) {
			return nil, apperr.New(apperr.CodeAPIKeyPermission, p)
		}
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for _, p := range permOrder {
		if set[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// NormIPs parses IPv4/IPv6 addresses and CIDR ranges into their canonical
// prefixes ("10.1.2.3/32" is kept as "10.1.2.3"; a range's host bits are
// cleared), without duplicates, in the order given.
func NormIPs(in []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, raw := range in {
		v := strings.TrimSpace(raw)
		if v == "" {
			continue
		}
		p, err := parsePrefix(v)
		if err != nil {
			return nil, apperr.New(apperr.CodeAPIKeyIP, v)
		}
		s := p.String()
		if p.IsSingleIP() {
			s = p.Addr().String()
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(out) > MaxIPs {
		return nil, apperr.New(apperr.CodeAPIKeyTooManyIPs, MaxIPs)
	}
	return out, nil
}

func parsePrefix(v string) (netip.Prefix, error) {
	if strings.Contains(v, "/") {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			return netip.Prefix{}, err
		}
		if p.Addr().Zone() != "" {
			return netip.Prefix{}, errors.New("zone")
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(v)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, errors.New("not an address")
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// ParseEd25519PublicKey reads a PEM (PKIX) Ed25519 public key.
func ParseEd25519PublicKey(s string) (ed25519.PublicKey, error) {
	block, _ := pem.Decode([]byte(strings.TrimSpace(s)))
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, apperr.New(apperr.CodeAPIKeyPublicKey)
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, apperr.New(apperr.CodeAPIKeyPublicKey)
	}
	k, ok := pub.(ed25519.PublicKey)
	if !ok {
		return nil, apperr.New(apperr.CodeAPIKeyPublicKey)
	}
	return k, nil
}

func itemOf(uid string, k Key) store.Item {
	return store.Item{
		attrUID: uid, attrLabel: k.Label, attrPerms: strings.Join(k.Permissions, ","),
		attrIPs: strings.Join(k.IPs, ","), attrType: k.KeyType, attrCreated: k.CreatedAt,
	}
}

func keyOf(it store.Item) Key {
	sk := it.Str(store.AttrSK)
	apiKey := strings.TrimPrefix(sk, "APIKEY#")
	if sk == "APIKEY" {
		apiKey = strings.TrimPrefix(it.Str(store.AttrPK), "APIKEY#")
	}
	return Key{APIKey: apiKey, Label: it.Str(attrLabel), Permissions: split(it.Str(attrPerms)),
		IPs: split(it.Str(attrIPs)), KeyType: it.Str(attrType), CreatedAt: it.Int(attrCreated), LastUsedAt: it.Int(attrUsed)}
}

func split(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

func has(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

const tokenAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// randomToken returns n characters from tokenAlphabet, uniformly.
func randomToken(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n*2)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("apikey: no randomness: " + err.Error())
		}
		for _, b := range buf {
			if int(b) < 248 && len(out) < n { // 248 = 4 × 62: no modulo bias
				out = append(out, tokenAlphabet[int(b)%len(tokenAlphabet)])
			}
		}
	}
	return string(out)
}

// validToken reports whether s has the shape of a key this service makes.
func validToken(s string) bool {
	if len(s) != KeyLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(tokenAlphabet, s[i]) < 0 {
			return false
		}
	}
	return true
}

// shortKey is the part of a key logs carry.
func shortKey(k string) string {
	if len(k) <= 8 {
		return k
	}
	return k[:8] + "…"
}

func internal(err error) error {
	return apperr.New(apperr.CodeInternal).WithCause(fmt.Errorf("apikey: %w", err))
}

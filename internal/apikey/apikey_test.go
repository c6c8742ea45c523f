package apikey

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// fakeAuth is a user whose right codes are known; VerifyAll records what
// it was asked for.
type fakeAuth struct {
	mu    sync.Mutex
	users map[string]auth.User
	// right is the code every factor must carry.
	right string
	asked [][]auth.Factor
}

func (f *fakeAuth) User(_ context.Context, uid string) (auth.User, error) {
	u, ok := f.users[uid]
	if !ok {
		return auth.User{}, apperr.New(apperr.CodeNotSignedIn)
	}
	return u, nil
}

func (f *fakeAuth) VerifyAll(_ context.Context, _ string, fs ...auth.Factor) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, fs)
	for _, x := range fs {
		if x.Code != f.right {
			return apperr.New(apperr.CodeVerifyCodeWrong)
		}
	}
	return nil
}

type env struct {
	svc  *Service
	st   store.Store
	auth *fakeAuth
	now  time.Time
}

func newEnv(t *testing.T, ttl time.Duration) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := auth.NewSealer([]byte(strings.Repeat("k", 32)), "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	fa := &fakeAuth{right: "123456", users: map[string]auth.User{
		"u1": {ID: "u1", Email: "a@example.com"},
		"u2": {ID: "u2", Email: "b@example.com", MobileCheck: true, Mobile: "99112233", GoogleOn: true},
		"u3": {ID: "u3", Mobile: "99112244"},
	}}
	e := &env{st: st, auth: fa, now: time.UnixMilli(1_765_000_000_000)}
	e.svc = New(Options{Store: st, Auth: fa, Sealer: sealer, Now: func() time.Time { return e.now },
		Log: zerolog.Nop(), CacheTTL: ttl})
	return e
}

var emailOnly = Codes{Email: "123456"}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("err = %v, want code %s", err, code)
	}
}

func hmacHex(secret, payload string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(payload))
	return hex.EncodeToString(m.Sum(nil))
}

func TestCreateHMACKeyResolvesAndVerifies(t *testing.T) {
	e := newEnv(t, time.Hour)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, "u1", Input{Label: " bot 1 ", Permissions: []string{"SPOT"}, Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.APIKey) != KeyLen || len(c.SecretKey) != KeyLen || c.APIKey == c.SecretKey {
		t.Fatalf("key %q secret %q", c.APIKey, c.SecretKey)
	}
	if c.Label != "bot 1" || strings.Join(c.Permissions, ",") != "read,spot" || c.KeyType != TypeHMAC || len(c.IPs) != 0 {
		t.Fatalf("created %+v", c.Key)
	}
	// The secret is sealed at rest: neither item holds it in the clear.
	for _, k := range []store.Key{lookupKey(c.APIKey), ownerKey("u1", c.APIKey)} {
		it, err := e.st.Get(ctx, k)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		if strings.Contains(fmt.Sprint(it), c.SecretKey) {
			t.Fatalf("%v holds the secret in the clear", k)
		}
	}
	list, err := e.svc.List(ctx, "u1")
	if err != nil || len(list) != 1 || list[0].APIKey != c.APIKey || list[0].Label != "bot 1" || list[0].CreatedAt != e.now.UnixMilli() {
		t.Fatalf("list %+v %v", list, err)
	}
	r, err := e.svc.Resolve(ctx, c.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	if r.UserID != "u1" || !r.Can(PermSpot) || r.Can(PermWithdraw) || r.Restricted() || !r.AllowsIP("203.0.113.9") {
		t.Fatalf("resolved %+v", r)
	}
	payload := "symbol=BTCUSDT&side=BUY&timestamp=1"
	sig := hmacHex(c.SecretKey, payload)
	if !r.Verify(payload, sig) || !r.Verify(payload, strings.ToUpper(sig)) {
		t.Fatal("the right signature is refused")
	}
	for _, bad := range []string{"", "zz", sig[:62], hmacHex(c.SecretKey, payload+"&x=1"), hmacHex("other", payload)} {
		if r.Verify(payload, bad) {
			t.Fatalf("signature %q accepted", bad)
		}
	}
	if _, err := e.svc.Resolve(ctx, strings.Repeat("A", KeyLen)); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := e.svc.Resolve(ctx, "short"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("malformed key: %v", err)
	}
}

func TestInputRules(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	cases := []struct {
		name string
		in   Input
		code string
	}{
		{"empty label", Input{Label: "  "}, apperr.CodeAPIKeyLabel},
		{"long label", Input{Label: strings.Repeat("ж", MaxLabelLen+1)}, apperr.CodeAPIKeyLabel},
		{"control in label", Input{Label: "a\x00b"}, apperr.CodeAPIKeyLabel},
		{"unknown permission", Input{Label: "x", Permissions: []string{"spot", "admin"}}, apperr.CodeAPIKeyPermission},
		{"bad ip", Input{Label: "x", IPs: []string{"10.0.0.300"}}, apperr.CodeAPIKeyIP},
		{"bad cidr", Input{Label: "x", IPs: []string{"10.0.0.0/33"}}, apperr.CodeAPIKeyIP},
		{"zone", Input{Label: "x", IPs: []string{"fe80::1%eth0"}}, apperr.CodeAPIKeyIP},
		{"withdraw without ips", Input{Label: "x", Permissions: []string{"withdraw"}}, apperr.CodeAPIKeyWithdrawNeedsIP},
		{"bad public key", Input{Label: "x", PublicKey: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"}, apperr.CodeAPIKeyPublicKey},
		{"missing email code", Input{Label: "x"}, apperr.CodeEmailCodeRequired},
		{"wrong email code", Input{Label: "x", Codes: Codes{Email: "000000"}}, apperr.CodeVerifyCodeWrong},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.Create(ctx, "u1", tc.in)
			wantCode(t, err, tc.code)
		})
	}
	var many []string
	for i := 0; i <= MaxIPs; i++ {
		many = append(many, fmt.Sprintf("10.0.0.%d", i))
	}
	_, err := e.svc.Create(ctx, "u1", Input{Label: "x", IPs: many, Codes: emailOnly})
	wantCode(t, err, apperr.CodeAPIKeyTooManyIPs)
	if list, _ := e.svc.List(ctx, "u1"); len(list) != 0 {
		t.Fatalf("a refused create left %d keys", len(list))
	}
}

func TestCodesAsForAWithdrawal(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	// u2: e-mail, phone check and authenticator on: all three, Google first.
	_, err := e.svc.Create(ctx, "u2", Input{Label: "x", Codes: Codes{Email: "123456", SMS: "123456"}})
	wantCode(t, err, apperr.CodeGoogleCodeRequired)
	if _, err := e.svc.Create(ctx, "u2", Input{Label: "x", Codes: Codes{Email: "123456", SMS: "123456", Google: "123456"}}); err != nil {
		t.Fatal(err)
	}
	got := e.auth.asked[len(e.auth.asked)-1]
	if len(got) != 3 || got[0].Channel != auth.ChannelGoogle || got[1].Channel != auth.ChannelSMS || got[1].Ops[0] != auth.OpSecurity ||
		got[2].Channel != auth.ChannelEmail || got[2].Ops[0] != auth.OpWithdrawEmail {
		t.Fatalf("factors %+v", got)
	}
	// u3: only a phone, phone check off: the SMS code.
	_, err = e.svc.Create(ctx, "u3", Input{Label: "x"})
	wantCode(t, err, apperr.CodeSMSCodeRequired)
	if _, err := e.svc.Create(ctx, "u3", Input{Label: "x", Codes: Codes{SMS: "123456"}}); err != nil {
		t.Fatal(err)
	}
}

func TestIPRestriction(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, "u1", Input{Label: "x", Permissions: []string{"spot", "withdraw"},
		IPs: []string{"203.0.113.7", "198.51.100.0/24", "2001:db8::/32", "::ffff:192.0.2.1", "203.0.113.7/32", "10.1.2.3/8", ""}, Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.IPs, " "); got != "203.0.113.7 198.51.100.0/24 2001:db8::/32 192.0.2.1 10.0.0.0/8" {
		t.Fatalf("ips %q", got)
	}
	r, err := e.svc.Resolve(ctx, c.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	for ip, want := range map[string]bool{
		"203.0.113.7": true, "203.0.113.8": false, "198.51.100.254": true, "198.51.101.1": false,
		"2001:db8:1::5": true, "2001:db9::1": false, "192.0.2.1": true, "::ffff:203.0.113.7": true,
		"10.200.0.1": true, "11.0.0.1": false, "not-an-ip": false, "": false,
	} {
		if r.AllowsIP(ip) != want {
			t.Errorf("AllowsIP(%q) = %v", ip, !want)
		}
	}
	if !r.Can(PermWithdraw) || !r.Restricted() {
		t.Fatalf("resolved %+v", r)
	}
}

func TestAtMost30KeysAndDeleteFreesOne(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	var last Created
	for i := 0; i < MaxKeys; i++ {
		c, err := e.svc.Create(ctx, "u1", Input{Label: fmt.Sprintf("k%d", i), Codes: emailOnly})
		if err != nil {
			t.Fatalf("key %d: %v", i, err)
		}
		last = c
		e.now = e.now.Add(time.Millisecond)
	}
	_, err := e.svc.Create(ctx, "u1", Input{Label: "one too many", Codes: emailOnly})
	wantCode(t, err, apperr.CodeAPIKeyTooMany)
	list, _ := e.svc.List(ctx, "u1")
	if len(list) != MaxKeys || list[0].Label != fmt.Sprintf("k%d", MaxKeys-1) {
		t.Fatalf("%d keys, newest %q", len(list), list[0].Label)
	}
	if err := e.svc.Delete(ctx, "u1", last.APIKey); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Create(ctx, "u1", Input{Label: "fits again", Codes: emailOnly}); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateAndDeleteAreImmediateAndOwnerOnly(t *testing.T) {
	e := newEnv(t, time.Hour) // a long cache: only the local drop makes changes visible
	ctx := context.Background()
	c, err := e.svc.Create(ctx, "u1", Input{Label: "x", Permissions: []string{"spot"}, Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Resolve(ctx, c.APIKey); err != nil { // cached now
		t.Fatal(err)
	}
	// Another user's key is not found, whatever the codes.
	_, err = e.svc.Update(ctx, "u2", c.APIKey, Input{Label: "mine", Codes: Codes{Email: "123456", SMS: "123456", Google: "123456"}})
	wantCode(t, err, apperr.CodeAPIKeyNotFound)
	wantCode(t, e.svc.Delete(ctx, "u2", c.APIKey), apperr.CodeAPIKeyNotFound)

	_, err = e.svc.Update(ctx, "u1", c.APIKey, Input{Label: "y", Permissions: []string{"spot", "withdraw"}, IPs: []string{"10.0.0.1"}})
	wantCode(t, err, apperr.CodeEmailCodeRequired)
	k, err := e.svc.Update(ctx, "u1", c.APIKey, Input{Label: "y", Permissions: []string{"withdraw"}, IPs: []string{"10.0.0.1"}, Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	if k.Label != "y" || strings.Join(k.Permissions, ",") != "read,withdraw" || k.KeyType != TypeHMAC {
		t.Fatalf("updated %+v", k)
	}
	r, err := e.svc.Resolve(ctx, c.APIKey)
	if err != nil || r.Can(PermSpot) || !r.Can(PermWithdraw) || r.AllowsIP("10.0.0.2") {
		t.Fatalf("after update, resolved %+v %v", r, err)
	}
	list, _ := e.svc.List(ctx, "u1")
	if len(list) != 1 || list[0].Label != "y" {
		t.Fatalf("list %+v", list)
	}

	if err := e.svc.Delete(ctx, "u1", c.APIKey); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Resolve(ctx, c.APIKey); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("a deleted key resolves: %v", err)
	}
	wantCode(t, e.svc.Delete(ctx, "u1", c.APIKey), apperr.CodeAPIKeyNotFound)
	if list, _ := e.svc.List(ctx, "u1"); len(list) != 0 {
		t.Fatalf("list after delete %+v", list)
	}
}

func TestOtherProcessSeesDeleteWithinTTL(t *testing.T) {
	e := newEnv(t, 2*time.Second)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, "u1", Input{Label: "x", Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	other := New(e.svc.o) // a second process on the same table
	if _, err := other.Resolve(ctx, c.APIKey); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Delete(ctx, "u1", c.APIKey); err != nil {
		t.Fatal(err)
	}
	e.now = e.now.Add(2 * time.Second)
	if _, err := other.Resolve(ctx, c.APIKey); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("after the TTL the other process still resolves the key: %v", err)
	}
	// With no cache (the AWS runtime) a delete is seen at once.
	e.svc.o.CacheTTL = 0
	nocache := New(e.svc.o)
	c2, err := e.svc.Create(ctx, "u1", Input{Label: "x", Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nocache.Resolve(ctx, c2.APIKey); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Delete(ctx, "u1", c2.APIKey); err != nil {
		t.Fatal(err)
	}
	if _, err := nocache.Resolve(ctx, c2.APIKey); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("uncached resolve after delete: %v", err)
	}
}

func TestEd25519Key(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	c, err := e.svc.Create(ctx, "u1", Input{Label: "ed", Permissions: []string{"spot"}, PublicKey: pemKey, Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	if c.KeyType != TypeEd25519 || c.SecretKey != "" {
		t.Fatalf("created %+v", c)
	}
	r, err := e.svc.Resolve(ctx, c.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	payload := "symbol=BTCUSDT&timestamp=1"
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(payload)))
	if !r.Verify(payload, sig) {
		t.Fatal("the right Ed25519 signature is refused")
	}
	if r.Verify(payload+"&x=1", sig) || r.Verify(payload, hmacHex("x", payload)) {
		t.Fatal("a wrong signature is accepted")
	}
}

func TestTouchRecordsLastUseButNeverRevivesADeletedKey(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, "u1", Input{Label: "x", Codes: emailOnly})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := e.svc.Resolve(ctx, c.APIKey)
	e.now = e.now.Add(time.Second)
	e.svc.Touch(ctx, r)
	first := e.now.UnixMilli()
	e.now = e.now.Add(10 * time.Second)
	e.svc.Touch(ctx, r) // within TouchEvery: not written
	list, _ := e.svc.List(ctx, "u1")
	if list[0].LastUsedAt != first {
		t.Fatalf("lastUsedAt %d, want %d", list[0].LastUsedAt, first)
	}
	e.now = e.now.Add(time.Minute)
	e.svc.Touch(ctx, r)
	list, _ = e.svc.List(ctx, "u1")
	if list[0].LastUsedAt != e.now.UnixMilli() {
		t.Fatalf("lastUsedAt %d after a minute", list[0].LastUsedAt)
	}
	if err := e.svc.Delete(ctx, "u1", c.APIKey); err != nil {
		t.Fatal(err)
	}
	e.now = e.now.Add(time.Hour)
	e.svc.Touch(ctx, r)
	if _, err := e.st.Get(ctx, ownerKey("u1", c.APIKey)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a touch after delete wrote the key back: %v", err)
	}
}

func TestRandomTokenAlphabet(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		k := randomToken(KeyLen)
		if !validToken(k) || seen[k] {
			t.Fatalf("token %q", k)
		}
		seen[k] = true
	}
}

package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/account"
	"tenger/internal/apikey"
	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/ledger"
	"tenger/internal/support"
)

// newAccountEnv is the profile env with the account and support routers
// mounted beside the profile router, as the profile area mounts them.
func newAccountEnv(t *testing.T) (*profEnv, *apikey.Service, *ledger.Ledger) {
	t.Helper()
	p := newProfEnv(t)
	sealer, err := auth.NewSealer([]byte("account-routes-test-key"), "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	keys := apikey.New(apikey.Options{Store: p.st, Auth: p.svc, Sealer: sealer, Now: p.clock.Now})
	led := ledger.New(p.st, p.clock.Now)
	acct := account.New(account.Options{Store: p.st, Auth: p.svc, Keys: keys, Ledger: led, Now: p.clock.Now, Log: zerolog.Nop()})
	sup := support.New(support.Options{Store: p.st, Now: p.clock.Now, Log: zerolog.Nop()})
	opts := Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}
	mux := http.NewServeMux()
	Mount(mux, NewProfileRouter(p.svc, opts), NewAccountRouter(acct, opts), NewSupportRouter(sup, opts))
	p.h = mux
	return p, keys, led
}

const (
	pCancelInfo = "/fe-ex-api/user/check_user_cancellation_info"
	pCancel     = "/fe-ex-api/user/user_cancellation"
)

// The check lists what blocks a cancellation and the codes it needs; the
// cancellation, refused with the same list while anything is left, then
// goes through, clears the cookies, ends the session and closes sign-in.
func TestAccountCancellationRoutes(t *testing.T) {
	p, _, led := newAccountEnv(t)
	uid := p.signUp(t, "bye@example.com", "passw0rd")
	tok := p.signIn(t, "bye@example.com", "passw0rd")
	a := hdr(tok)
	p.fails(t, pCancelInfo, withEnv(map[string]any{}), authMode{}, apperr.CodeNotSignedIn)
	if _, err := led.Post(t.Context(), ledger.Posting{ID: "fund", Reason: "test", Legs: []ledger.Leg{
		ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount(uid, ledger.Spot), "USDT", decimal.NewFromInt(9))}}); err != nil {
		t.Fatal(err)
	}
	info := p.ok(t, pCancelInfo, withEnv(map[string]any{}), a)
	reasons, _ := info["reasons"].([]any)
	if info["canCancel"] != false || len(reasons) != 1 || info["needEmailCode"] != true || info["needSmsCode"] != false {
		t.Fatalf("info %+v", info)
	}
	r0 := reasons[0].(map[string]any)
	if r0["type"] != "balance" || r0["code"] != apperr.CodeCancelBalance || r0["balances"].([]any)[0].(map[string]any)["coin"] != "USDT" {
		t.Fatalf("reason %+v", r0)
	}
	p.ok(t, pEmailCode, withEnv(map[string]any{"operationType": 17}), a)
	code := p.box.last("bye@example.com", 17)
	_, env := p.post(t, pCancel, withEnv(map[string]any{"emailCode": code}), a)
	if env.Code != apperr.CodeCancellationBlocked || env.Data == nil {
		t.Fatalf("refusal %+v", env)
	}
	// The money leaves; the same code then cancels.
	if _, err := led.Post(t.Context(), ledger.Posting{ID: "out", Reason: "test", Legs: []ledger.Leg{
		ledger.Move(ledger.UserAccount(uid, ledger.Spot), ledger.ChainAccount("TRC20"), "USDT", decimal.NewFromInt(9))}}); err != nil {
		t.Fatal(err)
	}
	p.fails(t, pCancel, withEnv(map[string]any{"emailCode": "12345"}), a, apperr.CodeVerifyCodeWrong)
	p.fails(t, pCancel, withEnv(map[string]any{"emailCode": map[string]any{}}), a, apperr.CodeParam)
	rec, env := p.post(t, pCancel, withEnv(map[string]any{"emailCode": code, "reason": "testing"}), a)
	if env.Code != "0" || env.Data.(map[string]any)["cancelledAt"] == nil {
		t.Fatalf("cancellation %+v", env)
	}
	cleared := map[string]bool{}
	for _, c := range rec.Result().Cookies() {
		if c.MaxAge < 0 {
			cleared[c.Name] = true
		}
	}
	if !cleared[CookieToken] || !cleared[CookieXSRF] {
		t.Fatalf("cookies %v", rec.Result().Cookies())
	}
	p.fails(t, pUserInfo, withEnv(map[string]any{}), a, apperr.CodeNotSignedIn)
	p.fails(t, pLogin, withEnv(map[string]any{"email": "bye@example.com", "loginPword": "passw0rd"}), authMode{}, apperr.CodeAccountCancelled)
	p.fails(t, pLogin, withEnv(map[string]any{"email": "bye@example.com", "loginPword": "wrongpass1"}), authMode{}, apperr.CodeBadCredentials)
	p.fails(t, pRegister, withEnv(map[string]any{"email": "bye@example.com", "loginPword": "passw0rd", "code": "123456"}), authMode{},
		apperr.CodeCodeExpired)
}

// email_update asks for the new address's code and the current address's,
// and answers when withdrawals unlock.
func TestEmailUpdateRoute(t *testing.T) {
	p, _, _ := newAccountEnv(t)
	p.signUp(t, "now@example.com", "passw0rd")
	a := hdr(p.signIn(t, "now@example.com", "passw0rd"))
	p.ok(t, pEmailCode, withEnv(map[string]any{"email": "later@example.com", "operationType": 5}), a)
	p.ok(t, pEmailCode, withEnv(map[string]any{"operationType": 17}), a)
	newCode, oldCode := p.box.last("later@example.com", 5), p.box.last("now@example.com", 17)
	p.fails(t, pEmailUpd, withEnv(map[string]any{"email": "later@example.com", "oldEmailCode": oldCode}), a, apperr.CodeNewEmailCodeRequired)
	p.fails(t, pEmailUpd, withEnv(map[string]any{"email": "later@example.com", "emailCode": newCode}), a, apperr.CodeEmailCodeRequired)
	p.fails(t, pEmailUpd, withEnv(map[string]any{"email": "later@example.com", "emailCode": oldCode, "oldEmailCode": oldCode}), a,
		apperr.CodeVerifyCodeWrong)
	got := p.ok(t, pEmailUpd, withEnv(map[string]any{"email": "later@example.com", "emailCode": newCode, "oldEmailCode": oldCode}), a)
	if got["email"] != "later@example.com" || int64(got["withdrawLockedUntil"].(float64)) != p.clock.Now().Add(24*time.Hour).UnixMilli() {
		t.Fatalf("answer %+v", got)
	}
	info := p.ok(t, pUserInfo, withEnv(map[string]any{}), a)
	if info["email"] != "later@example.com" {
		t.Fatalf("user info %+v", info)
	}
}

// The account and support calls are in the OpenAPI document with their
// fields, as every route is.
func TestAccountAndSupportRoutesInOpenAPI(t *testing.T) {
	opts := Options{Log: zerolog.Nop()}
	doc := OpenAPI("Tenger API", "test", AllRoutes(NewProfileRouter(nil, opts), NewAccountRouter(nil, opts), NewSupportRouter(nil, opts)))
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{pCancelInfo, pCancel, pTicketNew, pTicketGet, pTicketReply, pTicketList, pTicketTypes,
		"canCancel", "needSmsCode", "pending_withdrawals", "oldEmailCode", "thread", "attachments"} {
		if !strings.Contains(s, want) {
			t.Errorf("OpenAPI lacks %s", want)
		}
	}
}

package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/kyc"
	"tenger/internal/kyc/kycsim"
	"tenger/internal/kyc/sumsub"
	"tenger/internal/ledger"
	"tenger/internal/store/embedded"
	"tenger/internal/wallet"
)

// kycSecret is the webhook secret of the test's simulator and route.
var kycSecret = []byte("kyc-routes-webhook-secret")

// newKYCEnv is the funds env with identity verification as the platform
// wires it: the simulator is the provider, its webhooks go through the
// webhook route, and the withdrawals' 24 h limit is the user's level's.
func newKYCEnv(t *testing.T) (*fundsEnv, *kyc.Service, *kycsim.Sim) {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &fundsEnv{box: &profOutbox{}, clock: &profClock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}}
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	authSvc := auth.New(auth.Options{Store: st, Notifier: auth.NotifierFunc(e.box.send), Now: e.clock.Now, Log: zerolog.Nop(),
		Password: &auth.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, SecretKey: []byte("k")})
	sim := kycsim.New(kycsim.Options{Store: st, WebhookSecret: kycSecret, Now: e.clock.Now, Log: zerolog.Nop()})
	svc := kyc.New(kyc.Options{Store: st, Provider: sim, Webhooks: sumsub.Webhooks{Secret: kycSecret}, Now: e.clock.Now, Log: zerolog.Nop()})
	e.led = ledger.New(st, e.clock.Now)
	e.wal = wallet.New(wallet.Options{Store: st, Ledger: e.led, Coins: cat, Auth: authSvc, Now: e.clock.Now, Log: zerolog.Nop()})
	e.funds, err = NewFunds(FundsConfig{Store: st, Ledger: e.led, Coins: cat, Auth: authSvc, Wallet: e.wal, Limits: svc, Now: e.clock.Now,
		Log: zerolog.Nop(), Dev: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Log: zerolog.Nop(), Now: e.clock.Now, Sessions: AuthSessions(authSvc)}
	kr := NewKYCRouter(svc, opts)
	sim.SetWebhookTarget(kr)
	e.mux = http.NewServeMux()
	Mount(e.mux, NewProfileRouter(authSvc, opts), e.funds.Router(opts), e.funds.DevRouter(opts), kr, NewDevKYCRouter(sim, opts))
	return e, svc, sim
}

// form posts a form to the mux and answers the status.
func (e *fundsEnv) form(t *testing.T, path string, v url.Values) int {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, req)
	return rec.Code
}

// hook posts a webhook body with headers to the webhook route.
func (e *fundsEnv) hook(t *testing.T, body []byte, h http.Header) (int, fundsAnswer) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, KYCWebhookPath, strings.NewReader(string(body)))
	for k, v := range h {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, req)
	var a fundsAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("webhook answer %s", rec.Body.String())
	}
	return rec.Code, a
}

func TestKYCRoutes(t *testing.T) {
	e, _, _ := newKYCEnv(t)
	uid, tok := e.signUp(t, "bat@example.com")
	_, other := e.signUp(t, "dorj@example.com")

	// Every call needs a session.
	for _, p := range []string{"/fe-ex-api/sumsub/v2/get_level_list", "/fe-ex-api/sumsub/get_access_token", "/fe-ex-api/sumsub/change_level_and_create_info"} {
		if a := e.call(t, p, "", map[string]any{}); a.Code != apperr.CodeNotSignedIn {
			t.Fatalf("%s without a session: %+v", p, a)
		}
	}
	var list kyc.LevelList
	e.ok(t, "/fe-ex-api/sumsub/v2/get_level_list", tok, map[string]any{}, &list)
	if len(list.Levels) != 1 || list.Levels[0].Name != "basic" || list.Levels[0].WithdrawDailyUSDT.String() != "100000" ||
		list.WithdrawDailyUSDT.String() != "1000" || list.KYCStatus != kyc.Unverified || list.ApplicantID != "" || list.Provider != "simulator" {
		t.Fatalf("levels %+v", list)
	}
	if a := e.call(t, "/fe-ex-api/sumsub/change_level_and_create_info", tok, map[string]any{"levelName": "platinum"}); a.Code != apperr.CodeKYCLevelUnknown {
		t.Fatalf("unknown level %+v", a)
	}
	e.ok(t, "/fe-ex-api/sumsub/change_level_and_create_info", tok, map[string]any{"levelName": "basic"}, &list)
	if list.ApplicantID != kycsim.ApplicantID(uid) || list.CurrentLevel != "basic" || list.ReviewStatus != kyc.ReviewInit {
		t.Fatalf("started %+v", list)
	}
	mine := list.ApplicantID
	// Idempotent.
	e.ok(t, "/fe-ex-api/sumsub/change_level_and_create_info", tok, map[string]any{"levelName": "basic", "applicantId": mine}, &list)
	if list.ApplicantID != mine {
		t.Fatalf("again %+v", list)
	}
	// Another user's applicant id is no applicant of theirs, and says nothing about it.
	for _, p := range []string{"/fe-ex-api/sumsub/get_access_token", "/fe-ex-api/sumsub/change_level_and_create_info"} {
		if a := e.call(t, p, other, map[string]any{"applicantId": mine}); a.Code != apperr.CodeKYCApplicantUnknown || strings.Contains(string(a.Data), mine) {
			t.Fatalf("%s with another user's applicant: %+v", p, a)
		}
	}
	var token kyc.TokenView
	e.ok(t, "/fe-ex-api/sumsub/get_access_token", tok, map[string]any{}, &token)
	if token.Provider != "simulator" || token.ApplicantID != mine || token.UserID != uid || token.TTLInSecs != 600 ||
		token.SimulatorURL != "/dev/kyc?accessToken="+url.QueryEscape(token.Token) {
		t.Fatalf("token %+v", token)
	}
	// The simulator's page answers the token.
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, token.SimulatorURL, nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Verification simulator") {
		t.Fatalf("page %d", rec.Code)
	}
	// A review before any document is refused.
	if a := e.call(t, "/dev/kyc/review", "", map[string]any{"userId": uid, "answer": "GREEN"}); a.Code != apperr.CodeKYCNotSubmitted {
		t.Fatalf("review before submit %+v", a)
	}
	if code := e.form(t, "/dev/kyc/submit", url.Values{"accessToken": {token.Token}, "firstName": {"Bat"}, "lastName": {"Dorj"},
		"dob": {"1990-03-14"}, "country": {"MNG"}, "idDocNumber": {"E1234567"}, "uploadId": {"up-1"}}); code != http.StatusSeeOther {
		t.Fatalf("submit %d", code)
	}
	var info auth.UserInfo
	e.ok(t, "/fe-ex-api/common/user_info", tok, map[string]any{}, &info)
	if info.KYCStatus != 1 || info.KYCLevel != "" {
		t.Fatalf("user info while pending %+v", info)
	}
	e.clock.Add(time.Second)
	var d kycsim.Delivery
	e.ok(t, "/dev/kyc/review", "", map[string]any{"userId": uid, "answer": "RED", "rejectLabels": []string{"UNSATISFACTORY_PHOTOS"},
		"reviewRejectType": "RETRY", "moderationComment": "The photo is blurred"}, &d)
	if d.Status != 200 || d.Code != "0" || d.Type != "applicantReviewed" {
		t.Fatalf("delivery %+v", d)
	}
	e.ok(t, "/fe-ex-api/common/user_info", tok, map[string]any{}, &info)
	if info.KYCStatus != 3 || info.KYCRejectReason != "The photo is blurred" {
		t.Fatalf("user info after RED %+v", info)
	}
	e.ok(t, "/fe-ex-api/sumsub/v2/get_level_list", tok, map[string]any{}, &list)
	if !list.CanRetry || list.Levels[0].Status != "rejected" || list.RejectReason != "The photo is blurred" {
		t.Fatalf("levels after RED %+v", list)
	}
}

func TestKYCWebhookRoute(t *testing.T) {
	e, svc, _ := newKYCEnv(t)
	uid, tok := e.signUp(t, "bat@example.com")
	e.ok(t, "/fe-ex-api/sumsub/change_level_and_create_info", tok, map[string]any{}, nil)
	body, _ := json.Marshal(sumsub.Payload{ApplicantID: kycsim.ApplicantID(uid), ExternalUserID: uid, LevelName: "basic-kyc-level",
		Type: "applicantPending", CorrelationID: "req-1", CreatedAtMs: sumsub.FormatTime(e.clock.Now().UnixMilli()), ReviewStatus: "pending"})
	good := http.Header{}
	if err := sumsub.SignWebhook(good, sumsub.AlgSHA1, kycSecret, body); err != nil {
		t.Fatal(err)
	}
	// A bad digest: 401 and the catalogue's code, nothing written.
	bad := http.Header{sumsub.HeaderDigestAlg: {sumsub.AlgSHA1}, sumsub.HeaderDigest: {strings.Repeat("0", 40)}}
	if code, a := e.hook(t, body, bad); code != http.StatusUnauthorized || a.Code != apperr.CodeKYCWebhookDigest {
		t.Fatalf("bad digest %d %+v", code, a)
	}
	if code, a := e.hook(t, body, http.Header{}); code != http.StatusUnauthorized || a.Code != apperr.CodeKYCWebhookDigest {
		t.Fatalf("no digest %d %+v", code, a)
	}
	unknown := http.Header{sumsub.HeaderDigestAlg: {"HMAC_SHA3_HEX"}, sumsub.HeaderDigest: good[sumsub.HeaderDigest]}
	if code, a := e.hook(t, body, unknown); code != http.StatusUnauthorized || a.Code != apperr.CodeKYCWebhookAlg {
		t.Fatalf("unknown algorithm %d %+v", code, a)
	}
	if hist, _ := svc.History(t.Context(), uid); len(hist) != 0 {
		t.Fatalf("refused webhooks left history %+v", hist)
	}
	code, a := e.hook(t, body, good)
	var res kyc.WebhookResult
	_ = json.Unmarshal(a.Data, &res)
	if code != 200 || a.Code != "0" || !res.Applied || res.KYCStatus != kyc.Pending {
		t.Fatalf("signed %d %+v", code, a)
	}
	// Replayed: answered 200 (the provider must stop sending it), applied once.
	code, a = e.hook(t, body, good)
	_ = json.Unmarshal(a.Data, &res)
	if code != 200 || res.Applied || !res.Duplicate {
		t.Fatalf("replayed %d %+v", code, a)
	}
	// GET is not the webhook.
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, KYCWebhookPath, nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("GET %d", rec.Code)
	}
	// A session is not needed, nor taken: the webhook answers the same without one.
	if hist, _ := svc.History(t.Context(), uid); len(hist) != 1 {
		t.Fatalf("history %+v", hist)
	}
}

// The withdrawal limit follows the level: an unverified user is refused
// above the unverified limit with the daily-limit code (13011), and the
// same withdrawal passes once the user is verified.
func TestWithdrawalLimitFollowsTheLevel(t *testing.T) {
	e, _, _ := newKYCEnv(t)
	uid, tok := e.signUp(t, "bat@example.com")
	var addr struct{ AddressLong string }
	e.ok(t, "/fe-ex-api/wallet/get_charge_address", tok, map[string]any{"symbol": "USDT", "chain": "TRC20"}, &addr)
	e.ok(t, "/dev/chain/deposit", "", map[string]any{"coin": "USDT", "chain": "TRC20", "address": addr.AddressLong, "amount": "3000"}, nil)
	e.ok(t, "/dev/chain/mine", "", map[string]any{"chain": "TRC20", "blocks": 19}, nil)
	var cost struct {
		Total string `json:"total_withdraw_daily_max_limit"`
		Left  string `json:"left_withdraw_daily_amount"`
	}
	e.ok(t, "/fe-ex-api/cost/Getcost", tok, map[string]any{"symbol": "USDT", "chain": "TRC20"}, &cost)
	if cost.Total != "1000.00" || cost.Left != "1000.00" {
		t.Fatalf("unverified cost %+v", cost)
	}
	der, _ := chain.New(chain.DevelopmentConfig())
	to, _ := der.DepositAddress(chain.TRC20, 999)
	body := map[string]any{"symbol": "USDT", "trustType": "TRC20", "address": to.Address, "amount": "1500", "fee": "1",
		"emailCode": e.emailCode(t, tok, "bat@example.com")}
	a := e.call(t, "/fe-ex-api/wallet/confirm_withdraw", tok, body)
	if a.Code != apperr.CodeDailyLimit || !strings.Contains(string(a.Data), `"limit":"1000.00"`) {
		t.Fatalf("unverified above the limit %+v", a)
	}

	var token kyc.TokenView
	e.ok(t, "/fe-ex-api/sumsub/get_access_token", tok, map[string]any{}, &token)
	if code := e.form(t, "/dev/kyc/submit", url.Values{"accessToken": {token.Token}, "firstName": {"Bat"}, "lastName": {"Dorj"},
		"dob": {"1990-03-14"}, "country": {"MNG"}, "idDocNumber": {"E1234567"}, "uploadId": {"up-1"}}); code != http.StatusSeeOther {
		t.Fatalf("submit %d", code)
	}
	e.clock.Add(time.Second)
	e.ok(t, "/dev/kyc/review", "", map[string]any{"userId": uid, "answer": "GREEN"}, nil)
	e.ok(t, "/fe-ex-api/cost/Getcost", tok, map[string]any{"symbol": "USDT", "chain": "TRC20"}, &cost)
	if cost.Total != "100000.00" {
		t.Fatalf("verified cost %+v", cost)
	}
	body["emailCode"] = e.emailCode(t, tok, "bat@example.com")
	var sub FundsSubmitResp
	e.ok(t, "/fe-ex-api/wallet/confirm_withdraw", tok, body, &sub)
	if sub.ID == "" {
		t.Fatalf("submit %+v", sub)
	}
}

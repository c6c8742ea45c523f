package kycsim_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/kyc"
	"tenger/internal/kyc/kycsim"
	"tenger/internal/kyc/kyctest"
	"tenger/internal/kyc/sumsub"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newStore(t *testing.T) store.Store {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func TestProviderContract(t *testing.T) {
	kyctest.RunProvider(t, func(t *testing.T) kyc.Provider {
		return kycsim.New(kycsim.Options{Store: newStore(t), WebhookSecret: []byte("s")})
	})
}

// docs is a document check that knows one upload of one user.
type docs struct{}

func (docs) DocumentCheck(_ context.Context, uid, uploadID string) error {
	if uid == "10000001" && uploadID == "up-1" {
		return nil
	}
	return errors.New("no such upload of this user")
}

type simEnv struct {
	st    store.Store
	sim   *kycsim.Sim
	svc   *kyc.Service
	clock *clock
	srv   *httptest.Server
}

// newSimEnv wires the simulator to a KYC service as the platform does: the
// simulator's webhooks reach the service through an HTTP handler that
// passes headers and raw body, signed with the secret the service checks.
func newSimEnv(t *testing.T, serviceSecret []byte) *simEnv {
	t.Helper()
	e := &simEnv{st: newStore(t), clock: &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}}
	e.sim = kycsim.New(kycsim.Options{Store: e.st, WebhookSecret: []byte("sim-secret"), Now: e.clock.Now, Log: zerolog.Nop()})
	e.svc = kyc.New(kyc.Options{Store: e.st, Provider: e.sim, Webhooks: sumsub.Webhooks{Secret: serviceSecret}, Now: e.clock.Now, Log: zerolog.Nop()})
	e.sim.SetWebhookTarget(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != kycsim.DefaultWebhookPath || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if _, err := e.svc.Webhook(r.Context(), r.Header, body); err != nil {
			ae := apperr.As(err)
			w.WriteHeader(ae.Entry.HTTP)
			_, _ = io.WriteString(w, `{"code":"`+ae.Entry.Code+`","msg":"refused"}`)
			return
		}
		_, _ = io.WriteString(w, `{"code":"0","msg":"success","data":{}}`)
	}))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /dev/kyc", e.sim.ServePage)
	mux.HandleFunc("POST /dev/kyc/submit", e.sim.ServeSubmit)
	mux.HandleFunc("POST /dev/kyc/review/form", e.sim.ServeReviewForm)
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	k := auth.ProfileKey("10000001")
	if err := e.st.Put(context.Background(), store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": "10000001"}, nil); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *simEnv) status(t *testing.T) kyc.Status {
	t.Helper()
	it, err := e.st.Get(context.Background(), auth.ProfileKey("10000001"))
	if err != nil {
		t.Fatal(err)
	}
	return kyc.Status(it.Int(auth.AttrKYCStatus))
}

// noRedirect keeps the 303s visible.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (e *simEnv) post(t *testing.T, path string, form url.Values) (int, string) {
	t.Helper()
	resp, err := noRedirect.PostForm(e.srv.URL+path, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (e *simEnv) page(t *testing.T, token string) (int, string) {
	t.Helper()
	resp, err := http.Get(e.srv.URL + "/dev/kyc?accessToken=" + url.QueryEscape(token))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func form(token string) url.Values {
	return url.Values{"accessToken": {token}, "firstName": {"Бат"}, "lastName": {"Дорж"}, "dob": {"1990-03-14"}, "country": {"mng"},
		"idDocNumber": {"E1234567"}, "uploadId": {"up-1"}}
}

func TestPageSubmitAndReviewThroughTheWebhook(t *testing.T) {
	e := newSimEnv(t, []byte("sim-secret"))
	ctx := context.Background()
	tok, err := e.svc.AccessToken(ctx, "10000001", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if tok.Provider != "simulator" || !strings.HasPrefix(tok.SimulatorURL, "/dev/kyc?accessToken=") || tok.ApplicantID != kycsim.ApplicantID("10000001") {
		t.Fatalf("token %+v", tok)
	}
	code, body := e.page(t, tok.Token)
	if code != 200 || !strings.Contains(body, `id="submit-form"`) || strings.Contains(body, "Reviewer") {
		t.Fatalf("page %d %s", code, body)
	}
	if code, body := e.page(t, "_act-sim-nope"); code != 404 || !strings.Contains(body, "invalid or expired") {
		t.Fatalf("unknown token %d %s", code, body)
	}
	// A bad field is shown on the page; nothing is sent.
	bad := form(tok.Token)
	bad.Set("dob", "2090-01-01")
	if code, body := e.post(t, "/dev/kyc/submit", bad); code != 400 || !strings.Contains(body, "dob") {
		t.Fatalf("bad dob %d %s", code, body)
	}
	if e.status(t) != kyc.Unverified {
		t.Fatal("a refused form changed the status")
	}
	// The document check, when connected, refuses another user's upload.
	e.sim.SetDocumentCheck(docs{})
	other := form(tok.Token)
	other.Set("uploadId", "up-2")
	if code, body := e.post(t, "/dev/kyc/submit", other); code != 400 || !strings.Contains(body, "document image was not found") {
		t.Fatalf("foreign upload %d %s", code, body)
	}
	if code, _ := e.post(t, "/dev/kyc/submit", form(tok.Token)); code != http.StatusSeeOther {
		t.Fatalf("submit %d", code)
	}
	if e.status(t) != kyc.Pending {
		t.Fatalf("status after submit %s", e.status(t))
	}
	// Under review, a second submission is refused.
	if code, body := e.post(t, "/dev/kyc/submit", form(tok.Token)); code != 400 || !strings.Contains(body, "under review") {
		t.Fatalf("second submit %d %s", code, body)
	}
	if _, body := e.page(t, tok.Token); !strings.Contains(body, "Reviewer") || strings.Contains(body, `id="submit-form"`) {
		t.Fatalf("page under review %s", body)
	}
	// The reviewer asks for a better photo; the user may send again.
	e.clock.Add(time.Second)
	if code, _ := e.post(t, "/dev/kyc/review/form", url.Values{"accessToken": {tok.Token}, "answer": {"RED_RETRY"},
		"rejectLabels": {"UNSATISFACTORY_PHOTOS, SCREENSHOTS"}, "moderationComment": {"No screenshots, please."}}); code != http.StatusSeeOther {
		t.Fatalf("review form %d", code)
	}
	list, _ := e.svc.Levels(ctx, "10000001")
	if list.KYCStatus != kyc.Rejected || !list.CanRetry || list.RejectReason != "No screenshots, please." || len(list.RejectLabels) != 2 {
		t.Fatalf("after RED RETRY %+v", list)
	}
	e.clock.Add(time.Second)
	if code, _ := e.post(t, "/dev/kyc/submit", form(tok.Token)); code != http.StatusSeeOther {
		t.Fatalf("resubmit %d", code)
	}
	e.clock.Add(time.Second)
	d, err := e.sim.Review(ctx, kycsim.ReviewInput{UserID: "10000001", Answer: kyc.AnswerGreen})
	if err != nil || d.Status != 200 || d.Code != "0" {
		t.Fatalf("green %+v %v", d, err)
	}
	it, _ := e.st.Get(ctx, auth.ProfileKey("10000001"))
	if it.Int(auth.AttrKYCStatus) != 2 || it.Str(auth.AttrRealName) != "Бат Дорж" || it.Str(auth.AttrCountry) != "MNG" {
		t.Fatalf("profile %+v", it)
	}
	// The token expires.
	e.clock.Add(kyc.DefaultTokenTTL)
	if code, _ := e.page(t, tok.Token); code != 404 {
		t.Fatalf("expired token %d", code)
	}
}

func TestReviewRules(t *testing.T) {
	e := newSimEnv(t, []byte("sim-secret"))
	ctx := context.Background()
	tok, err := e.svc.AccessToken(ctx, "10000001", "", "")
	if err != nil {
		t.Fatal(err)
	}
	// Nothing sent yet: nothing to review.
	_, err = e.sim.Review(ctx, kycsim.ReviewInput{UserID: "10000001", Answer: kyc.AnswerGreen})
	if apperr.As(err).Entry.Code != apperr.CodeKYCNotSubmitted {
		t.Fatalf("review before submit: %v", err)
	}
	_, err = e.sim.Review(ctx, kycsim.ReviewInput{UserID: "10000001", Answer: "BLUE"})
	if apperr.As(err).Entry.Code != apperr.CodeKYCFormField {
		t.Fatalf("answer BLUE: %v", err)
	}
	if _, err := e.sim.Submit(ctx, tok.Token, kycsim.Submission{FirstName: "Bat", LastName: "Dorj", DOB: "1990-03-14", Country: "MNG",
		DocNumber: "E1234567", UploadID: "up-1"}); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(time.Second)
	if _, err := e.sim.Review(ctx, kycsim.ReviewInput{UserID: "10000001", Answer: kyc.AnswerRed, RejectType: kyc.RejectFinal}); err != nil {
		t.Fatal(err)
	}
	// FINAL: the page offers no form, and a submission is refused.
	if _, body := e.page(t, tok.Token); strings.Contains(body, `id="submit-form"`) {
		t.Fatalf("form after FINAL: %s", body)
	}
	_, err = e.sim.Submit(ctx, tok.Token, kycsim.Submission{FirstName: "Bat", LastName: "Dorj", DOB: "1990-03-14", Country: "MNG",
		DocNumber: "E1234567", UploadID: "up-1"})
	if apperr.As(err).Entry.Code != apperr.CodeKYCFinalRejected {
		t.Fatalf("submit after FINAL: %v", err)
	}
	if e.status(t) != kyc.Rejected {
		t.Fatalf("status %s", e.status(t))
	}
}

// A webhook signed with another secret than the service's is refused by
// the service (the simulator reports the refusal) and changes nothing.
func TestWrongSecretIsRefused(t *testing.T) {
	e := newSimEnv(t, []byte("another-secret"))
	ctx := context.Background()
	tok, err := e.svc.AccessToken(ctx, "10000001", "", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.sim.Submit(ctx, tok.Token, kycsim.Submission{FirstName: "Bat", LastName: "Dorj", DOB: "1990-03-14", Country: "MNG",
		DocNumber: "E1234567", UploadID: "up-1"})
	ae := apperr.As(err)
	d, _ := ae.Data.(kycsim.Delivery)
	if ae.Entry.Code != apperr.CodeKYCDelivery || d.Status != http.StatusUnauthorized || d.Code != apperr.CodeKYCWebhookDigest {
		t.Fatalf("%v %+v", err, d)
	}
	if e.status(t) != kyc.Unverified {
		t.Fatalf("status %s", e.status(t))
	}
}

package sumsub_test

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/kyc"
	"tenger/internal/kyc/kyctest"
	"tenger/internal/kyc/sumsub"
)

const (
	appToken  = "sbx:uY0CgwELmgUAEyl4hNWxLngb.0WSeQeiYny4WEqmAALEAiK2qTC96fBad"
	appSecret = "app-secret-key"
	// fixedTS is the X-App-Access-Ts of the vectors (2020-12-09 22:07:15 UTC).
	fixedTS = 1607551635
)

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The request signature against vectors computed with openssl:
//
//	printf '%s' '1607551635POST/resources/applicants?levelName=basic-kyc-level{"externalUserId":"10000001","type":"individual"}' |
//	  openssl dgst -sha256 -hmac 'app-secret-key'
//	printf '%s' '1607551635GET/resources/applicants/5b594ade0a975a36c9349e66/status' | openssl dgst -sha256 -hmac 'app-secret-key'
func TestRequestSignatureVectors(t *testing.T) {
	for _, c := range []struct {
		method, uri, body, want string
	}{
		{"POST", "/resources/applicants?levelName=basic-kyc-level", `{"externalUserId":"10000001","type":"individual"}`,
			"389a3b720ec9d9044ed94d973cb87ca363718cedabd7dd0cd867ad35413976ee"},
		{"GET", "/resources/applicants/5b594ade0a975a36c9349e66/status", "",
			"28685cf21da04531c63921ef053e3c23c48e0242b282e3739ba4b29a2f210c03"},
		// The method is signed upper-case whatever the caller wrote.
		{"get", "/resources/applicants/5b594ade0a975a36c9349e66/status", "",
			"28685cf21da04531c63921ef053e3c23c48e0242b282e3739ba4b29a2f210c03"},
	} {
		if got := sumsub.SignRequest(appSecret, "1607551635", c.method, c.uri, []byte(c.body)); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.method, c.uri, got, c.want)
		}
	}
}

// The webhook digest of testdata/webhook_applicant_reviewed_green.json
// against vectors computed with openssl:
//
//	openssl dgst -sha1 -hmac 'webhook-secret-key' < testdata/webhook_applicant_reviewed_green.json
//	openssl dgst -sha256 -hmac 'webhook-secret-key' < testdata/webhook_applicant_reviewed_green.json
//	openssl dgst -sha512 -hmac 'webhook-secret-key' < testdata/webhook_applicant_reviewed_green.json
func TestWebhookDigestVectors(t *testing.T) {
	body := testdata(t, "webhook_applicant_reviewed_green.json")
	secret := []byte("webhook-secret-key")
	vectors := map[string]string{
		sumsub.AlgSHA1:   "eeae13fce719bac874b39bbdee957147914ea277",
		sumsub.AlgSHA256: "dcaa75459dada92b3ba684d95e79827199fc213490c1fcce86ba757b16af883f",
		sumsub.AlgSHA512: "ffd30dbd2f3985c559f9fddd6bf448d4bac87ce8b7f5553143596cbb6a038789f8ccce9d144c769a5fc529700dee0375b5bf7556672d644bbe9df344f36844f0",
	}
	for alg, want := range vectors {
		got, err := sumsub.Digest(alg, secret, body)
		if err != nil || got != want {
			t.Errorf("%s: %s %v, want %s", alg, got, err, want)
		}
		if err := sumsub.VerifyDigest(alg, want, secret, body); err != nil {
			t.Errorf("%s: the vector does not verify: %v", alg, err)
		}
		// Hex is compared case-insensitively: it is the same digest.
		if err := sumsub.VerifyDigest(alg, strings.ToUpper(want), secret, body); err != nil {
			t.Errorf("%s upper-case: %v", alg, err)
		}
		if err := sumsub.VerifyDigest(alg, want, []byte("another-secret"), body); apperr.As(err).Entry.Code != apperr.CodeKYCWebhookDigest {
			t.Errorf("%s with another secret: %v", alg, err)
		}
		changed := append([]byte{}, body...)
		changed[10] ^= 1
		if err := sumsub.VerifyDigest(alg, want, secret, changed); apperr.As(err).Entry.Code != apperr.CodeKYCWebhookDigest {
			t.Errorf("%s over a changed body: %v", alg, err)
		}
	}
	for _, alg := range []string{"HMAC_MD5_HEX", "", "hmac_sha256_hex", "SHA256"} {
		if err := sumsub.VerifyDigest(alg, vectors[sumsub.AlgSHA256], secret, body); apperr.As(err).Entry.Code != apperr.CodeKYCWebhookAlg {
			t.Errorf("algorithm %q: %v", alg, err)
		}
	}
	// Another webhook of the same secret (openssl dgst -sha256 -hmac
	// 'webhook-secret-key' < testdata/webhook_applicant_pending.json).
	if err := sumsub.VerifyDigest(sumsub.AlgSHA256, "988ebcf5a0e597e25e27cd39696bf0066e5a5984570a58278e71ffeaa89a1fed", secret,
		testdata(t, "webhook_applicant_pending.json")); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeDocumentedWebhooks(t *testing.T) {
	w := sumsub.Webhooks{Secret: []byte("webhook-secret-key")}
	decode := func(name string) kyc.Event {
		t.Helper()
		body := testdata(t, name)
		h := http.Header{}
		if err := sumsub.SignWebhook(h, sumsub.AlgSHA512, w.Secret, body); err != nil {
			t.Fatal(err)
		}
		ev, err := w.DecodeWebhook(h, body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return ev
	}
	at := func(s string) int64 {
		tm, err := time.Parse("2006-01-02 15:04:05.000", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	p := decode("webhook_applicant_pending.json")
	if p.Kind != kyc.EventPending || p.ApplicantID != "5b594ade0a975a36c9349e66" || p.UserID != "10000001" ||
		p.ProviderLevel != "basic-kyc-level" || p.AtMs != at("2020-06-24 05:08:40.120") || p.Key == "" {
		t.Fatalf("pending %+v", p)
	}
	g := decode("webhook_applicant_reviewed_green.json")
	if g.Kind != kyc.EventReviewed || g.Answer != kyc.AnswerGreen || g.AtMs != at("2020-06-24 05:11:02.321") || g.Key == p.Key {
		t.Fatalf("green %+v", g)
	}
	r := decode("webhook_applicant_reviewed_red_retry.json")
	if r.Answer != kyc.AnswerRed || r.RejectType != kyc.RejectRetry || len(r.RejectLabels) != 2 ||
		r.Reason != "We do not accept screenshots. Please upload an original photo." || r.ClientComment != "Screenshots are not accepted." {
		t.Fatalf("red %+v", r)
	}
	f := decode("webhook_applicant_reviewed_red_final.json")
	if f.RejectType != kyc.RejectFinal || len(f.RejectLabels) != 3 {
		t.Fatalf("final %+v", f)
	}
	if x := decode("webhook_applicant_reset.json"); x.Kind != kyc.EventReset {
		t.Fatalf("reset %+v", x)
	}
	// The same webhook sent again has the same key (applied once).
	if again := decode("webhook_applicant_reviewed_green.json"); again.Key != g.Key {
		t.Fatalf("keys %q %q", again.Key, g.Key)
	}
	// Signed, but a state change without its time cannot be ordered.
	body := []byte(`{"applicantId":"a","externalUserId":"1","type":"applicantPending","levelName":"basic-kyc-level"}`)
	h := http.Header{}
	_ = sumsub.SignWebhook(h, sumsub.AlgSHA256, w.Secret, body)
	if _, err := w.DecodeWebhook(h, body); apperr.As(err).Entry.Code != apperr.CodeKYCWebhookPayload {
		t.Fatalf("no createdAtMs: %v", err)
	}
}

// recorder is an httptest server answering with the documented shapes
// (testdata), checking the app token and the signature of every request.
type recorder struct {
	t        *testing.T
	mu       sync.Mutex
	requests []string
	bodies   map[string]string
	answer   func(method, uri string, body []byte) (int, []byte)
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	uri := r.URL.RequestURI()
	rc.mu.Lock()
	rc.requests = append(rc.requests, r.Method+" "+uri)
	if rc.bodies == nil {
		rc.bodies = map[string]string{}
	}
	rc.bodies[r.Method+" "+r.URL.Path] = string(body)
	rc.mu.Unlock()
	want := sumsub.SignRequest(appSecret, r.Header.Get(sumsub.HeaderTS), r.Method, uri, body)
	got, _ := hex.DecodeString(r.Header.Get(sumsub.HeaderSig))
	wantB, _ := hex.DecodeString(want)
	if r.Header.Get(sumsub.HeaderAppToken) != appToken || !hmac.Equal(got, wantB) || r.Header.Get(sumsub.HeaderTS) != fmt.Sprint(fixedTS) ||
		r.Header.Get(sumsub.HeaderSig) != strings.ToLower(r.Header.Get(sumsub.HeaderSig)) {
		rc.t.Errorf("%s %s: bad signature headers %v", r.Method, uri, r.Header)
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write(testdataBytes("signature_mismatch.json"))
		return
	}
	status, out := rc.answer(r.Method, uri, body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

func testdataBytes(name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return b
}

func newClient(t *testing.T, h http.Handler) *sumsub.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := sumsub.New(sumsub.Config{BaseURL: srv.URL, AppToken: appToken, SecretKey: appSecret,
		Now: func() time.Time { return time.Unix(fixedTS, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientAgainstDocumentedAnswers(t *testing.T) {
	ctx := context.Background()
	created := false
	rc := &recorder{t: t}
	rc.answer = func(method, uri string, body []byte) (int, []byte) {
		switch {
		case method == "POST" && uri == "/resources/applicants?levelName=basic-kyc-level":
			if created {
				return http.StatusConflict, testdataBytes("applicant_exists.json")
			}
			created = true
			return http.StatusCreated, testdataBytes("applicant_created.json")
		case method == "GET" && uri == "/resources/applicants/-;externalUserId=10000001/one",
			method == "GET" && uri == "/resources/applicants/5b594ade0a975a36c9349e66/one":
			return http.StatusOK, testdataBytes("applicant_one.json")
		case method == "GET" && uri == "/resources/applicants/5b594ade0a975a36c9349e66/status":
			return http.StatusOK, testdataBytes("applicant_status_red.json")
		case method == "POST" && uri == "/resources/accessTokens/sdk":
			return http.StatusOK, testdataBytes("access_token.json")
		case method == "POST" && uri == "/resources/applicants/5b594ade0a975a36c9349e66/moveToLevel?name=advanced%20kyc%2Blive":
			return http.StatusOK, testdataBytes("applicant_created.json")
		}
		return http.StatusNotFound, []byte(`{"description":"Not found","code":404,"correlationId":"req-x","errorCode":4040,"errorName":"not-found"}`)
	}
	c := newClient(t, rc)
	a, err := c.CreateApplicant(ctx, "10000001", "basic-kyc-level")
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != "5b594ade0a975a36c9349e66" || a.UserID != "10000001" || a.ProviderLevel != "basic-kyc-level" || a.ReviewStatus != kyc.ReviewInit ||
		a.CreatedMs != time.Date(2020, 6, 24, 5, 5, 14, 0, time.UTC).UnixMilli() {
		t.Fatalf("created %+v", a)
	}
	if got := rc.bodies["POST /resources/applicants"]; got != `{"externalUserId":"10000001","type":"individual"}` {
		t.Fatalf("create body %s", got)
	}
	// Sumsub keeps one applicant per externalUserId: 409, then the one it has.
	again, err := c.CreateApplicant(ctx, "10000001", "basic-kyc-level")
	if err != nil || again.ID != a.ID {
		t.Fatalf("again %+v %v", again, err)
	}
	tok, err := c.AccessToken(ctx, "10000001", "basic-kyc-level", 10*time.Minute)
	if err != nil || tok.Token != "_act-b8ebfb63-5f24-4b89-9c08-000000000000" || tok.UserID != "10000001" || tok.WebURL != "" {
		t.Fatalf("token %+v %v", tok, err)
	}
	var tb map[string]any
	if err := json.Unmarshal([]byte(rc.bodies["POST /resources/accessTokens/sdk"]), &tb); err != nil ||
		tb["userId"] != "10000001" || tb["levelName"] != "basic-kyc-level" || tb["ttlInSecs"] != float64(600) {
		t.Fatalf("token body %v %v", tb, err)
	}
	st, err := c.ApplicantStatus(ctx, a.ID)
	if err != nil || st.ReviewStatus != kyc.ReviewCompleted || st.Answer != kyc.AnswerRed || st.RejectType != kyc.RejectRetry ||
		len(st.RejectLabels) != 2 || st.ReviewID != "JyvKo" || st.ReviewedMs != time.Date(2020, 6, 24, 5, 11, 2, 0, time.UTC).UnixMilli() {
		t.Fatalf("status %+v %v", st, err)
	}
	id, err := c.ApplicantIdentity(ctx, a.ID)
	if err != nil || id != (kyc.Identity{FirstName: "Bat", LastName: "Dorj", Country: "MNG", DOB: "1990-03-14"}) {
		t.Fatalf("identity %+v %v", id, err)
	}
	// A level name is escaped in the query, and signed as it travels.
	if err := c.MoveToLevel(ctx, a.ID, "advanced kyc+live"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ApplicantStatus(ctx, "000000000000000000000000"); !errors.Is(err, kyc.ErrApplicantNotFound) {
		t.Fatalf("unknown applicant: %v", err)
	}
}

func TestClientSignatureMismatchAnswer(t *testing.T) {
	c := newClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write(testdataBytes("signature_mismatch.json"))
	}))
	_, err := c.AccessToken(context.Background(), "10000001", "basic-kyc-level", time.Minute)
	var ae *sumsub.APIError
	if !errors.As(err, &ae) || ae.Status != 401 || ae.ErrorCode != 4003 || ae.ErrorName != "app-token-signature mismatch" {
		t.Fatalf("%v", err)
	}
	if _, err := sumsub.New(sumsub.Config{AppToken: "x"}); err == nil {
		t.Fatal("a client without a secret key")
	}
}

// fakeSumsub keeps applicants as Sumsub would, answering in its shapes:
// the contract suite runs the adapter against it.
type fakeSumsub struct {
	mu     sync.Mutex
	byUser map[string]string
	level  map[string]string
	n      int
}

func (f *fakeSumsub) answer(method, uri string, body []byte) (int, []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path, query, _ := strings.Cut(uri, "?")
	parts := strings.Split(strings.TrimPrefix(path, "/resources/applicants/"), "/")
	applicantJSON := func(id string) []byte {
		var a map[string]any
		_ = json.Unmarshal(testdataBytes("applicant_created.json"), &a)
		a["id"] = id
		for u, i := range f.byUser {
			if i == id {
				a["externalUserId"] = u
			}
		}
		a["review"].(map[string]any)["levelName"] = f.level[id]
		b, _ := json.Marshal(a)
		return b
	}
	notFound := []byte(`{"description":"Applicant not found","code":404,"errorCode":4040}`)
	switch {
	case method == "POST" && path == "/resources/applicants":
		var in struct {
			ExternalUserID string `json:"externalUserId"`
		}
		_ = json.Unmarshal(body, &in)
		if id, ok := f.byUser[in.ExternalUserID]; ok {
			return http.StatusConflict, []byte(fmt.Sprintf(`{"description":"Applicant with external user id '%s' already exists: %s","code":409}`, in.ExternalUserID, id))
		}
		f.n++
		id := fmt.Sprintf("5b594ade0a975a36c934%04d", f.n)
		f.byUser[in.ExternalUserID], f.level[id] = id, strings.TrimPrefix(query, "levelName=")
		return http.StatusCreated, applicantJSON(id)
	case method == "GET" && strings.HasPrefix(path, "/resources/applicants/-;externalUserId="):
		uid := strings.TrimSuffix(strings.TrimPrefix(path, "/resources/applicants/-;externalUserId="), "/one")
		if id, ok := f.byUser[uid]; ok {
			return http.StatusOK, applicantJSON(id)
		}
		return http.StatusNotFound, notFound
	case method == "POST" && path == "/resources/accessTokens/sdk":
		var in struct {
			UserID string `json:"userId"`
		}
		_ = json.Unmarshal(body, &in)
		return http.StatusOK, []byte(fmt.Sprintf(`{"token":"_act-%d","userId":%q}`, f.n, in.UserID))
	case len(parts) == 2 && f.level[parts[0]] == "":
		return http.StatusNotFound, notFound
	case method == "POST" && len(parts) == 2 && parts[1] == "moveToLevel":
		f.level[parts[0]] = strings.TrimPrefix(query, "name=")
		return http.StatusOK, applicantJSON(parts[0])
	case method == "GET" && len(parts) == 2 && parts[1] == "status":
		return http.StatusOK, []byte(fmt.Sprintf(`{"reviewId":"JyvKo","attemptId":"FBQRv","attemptCnt":0,"levelName":%q,"createDate":"2020-06-24 05:05:14+0000","reviewStatus":"init","priority":0}`, f.level[parts[0]]))
	case method == "GET" && len(parts) == 2 && parts[1] == "one":
		return http.StatusOK, applicantJSON(parts[0])
	}
	return http.StatusNotFound, notFound
}

func TestProviderContract(t *testing.T) {
	kyctest.RunProvider(t, func(t *testing.T) kyc.Provider {
		f := &fakeSumsub{byUser: map[string]string{}, level: map[string]string{}}
		return newClient(t, &recorder{t: t, answer: f.answer})
	})
}

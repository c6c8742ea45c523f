package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/kyc/sumsub"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/store"
	"tenger/internal/store/dynamo"
	"tenger/internal/upload/s3store"
	"tenger/internal/upload/s3store/s3fake"
)

// The identity-and-account calls of the profile function, driven as API
// Gateway sends them (the recorded events of events/samples) on DynamoDB
// Local with the key-space guard: identity verification with Sumsub (a
// stand-in for its REST API that checks every request's signature) and
// its webhook through the edge, corporate verification with uploaded
// documents, support tickets, and the cancellation check.

// Sumsub's keys as the operator puts them in the secret; the function
// reads them from the environment here (platform.EnvSumsubAppToken ...),
// as lazySumsub reads them from the secret's JSON in AWS.
const (
	sumsubAppToken      = "sbx:tenger-profile-test-app-token"
	sumsubSecretKey     = "tenger-profile-test-secret-key"
	sumsubWebhookSecret = "tenger-profile-test-webhook-secret"
	// originKey is what CloudFront adds to every request (X-Tenger-Origin).
	originKey = "tenger-profile-test-origin-key-0123456789"
)

// fakeSumsub answers the Sumsub calls the verification service makes:
// create an applicant, an SDK access token, and the applicant with the
// person it recognised. Every request must carry the app token and its
// signature, as Sumsub checks them.
type fakeSumsub struct {
	t  testing.TB
	mu sync.Mutex
	// applicants by externalUserId.
	applicants map[string]string
	calls      []string
}

func (f *fakeSumsub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	ts := r.Header.Get(sumsub.HeaderTS)
	if r.Header.Get(sumsub.HeaderAppToken) != sumsubAppToken ||
		r.Header.Get(sumsub.HeaderSig) != sumsub.SignRequest(sumsubSecretKey, ts, r.Method, r.URL.RequestURI(), body) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"description":"Request signature mismatch","code":401,"correlationId":"test"}`))
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/resources/applicants":
		var in struct{ ExternalUserID string }
		_ = json.Unmarshal(body, &in)
		id, ok := f.applicants[in.ExternalUserID]
		if !ok {
			id = "65a1b2c3d4e5f6a7b8c9d0e" + strconv.Itoa(len(f.applicants))
			f.applicants[in.ExternalUserID] = id
		}
		level := r.URL.Query().Get("levelName")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "createdAt": "2026-11-21 09:12:45", "externalUserId": in.ExternalUserID,
			"levelName": level, "review": map[string]any{"reviewStatus": "init", "levelName": level}})
	case r.Method == http.MethodPost && r.URL.Path == "/resources/accessTokens/sdk":
		var in struct {
			UserID    string `json:"userId"`
			LevelName string `json:"levelName"`
		}
		_ = json.Unmarshal(body, &in)
		_ = json.NewEncoder(w).Encode(map[string]any{"token": "_act-sbx-jwt-" + in.UserID + "-" + in.LevelName, "userId": in.UserID})
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/resources/applicants/") && strings.HasSuffix(r.URL.Path, "/one"):
		_ = json.NewEncoder(w).Encode(map[string]any{"id": strings.Split(r.URL.Path, "/")[3],
			"info": map[string]any{"firstName": "Bat-Erdene", "lastName": "Dorj", "dob": "1990-04-12", "country": "MNG"}})
	default:
		f.t.Errorf("unexpected Sumsub call %s %s", r.Method, r.URL.RequestURI())
		w.WriteHeader(http.StatusNotFound)
	}
}

// identityEnv is the profile function on a fresh table, with uploads in a
// fake S3 bucket and Sumsub's stand-in.
type identityEnv struct {
	st     *dynamo.Store
	box    *fntest.Recorder
	s3     *s3fake.Server
	sumsub *fakeSumsub
	d      *platform.Deps
	h      awslambda.HTTPFunc
	// edge is the same handler behind the runtime of a deployment with
	// the edge: it serves only requests carrying the origin key.
	edge awslambda.HTTPFunc
}

func newIdentityEnv(t *testing.T, table string) *identityEnv {
	t.Helper()
	e := &identityEnv{st: fntest.Table(t, table), box: &fntest.Recorder{}, s3: s3fake.New(),
		sumsub: &fakeSumsub{t: t, applicants: map[string]string{}}}
	s3srv := httptest.NewServer(e.s3)
	t.Cleanup(s3srv.Close)
	sumsubSrv := httptest.NewServer(e.sumsub)
	t.Cleanup(sumsubSrv.Close)
	t.Setenv(platform.EnvSumsubAppToken, sumsubAppToken)
	t.Setenv(platform.EnvSumsubSecretKey, sumsubSecretKey)
	t.Setenv(platform.EnvSumsubWebhookSecret, sumsubWebhookSecret)
	t.Setenv(platform.EnvSumsubBaseURL, sumsubSrv.URL)
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	e.d = &platform.Deps{Store: e.st, Notify: e.box, Log: zerolog.Nop(), Now: time.Now, Coins: cc, Markets: markets.Defaults(),
		Config: platform.Config{Stage: "test", SecureCookies: true},
		// The auth key: API keys, whose count the cancellation check
		// reports, are sealed with it.
		SecretKey:   []byte("profile-identity-test-auth-key-0123456789abcdef"),
		UploadFiles: s3store.New(e.s3.Client(s3srv.URL), e.s3.Bucket, s3store.Options{Prefix: "uploads/"})}
	handler := newHandler(e.d)
	e.h = awslambda.NewRuntime("profile", io.Discard).HTTP(handler)
	rt := awslambda.NewRuntime("profile", io.Discard)
	rt.RequireOrigin(originKey)
	e.edge = rt.HTTP(handler)
	return e
}

// signUp registers email with the recorded sign-up events and signs in,
// returning the user id and the session token.
func (e *identityEnv) signUp(t *testing.T, email string) (uid, token string) {
	t.Helper()
	return fntest.SignUp(t, e.h, e.box, email)
}

// at is a recorded event of the signed-in user's (header auth) moved to
// another path of the profile function, with body.
func at(t *testing.T, token, path, body string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	return fntest.At(t, token, path, body)
}

// upload sends a PNG as the web app does (multipart, base64-encoded by API
// Gateway) to upload_img_auth?imageType= (or upload_img when imageType is
// 0) and answers its id.
func (e *identityEnv) upload(t *testing.T, token string, imageType int) string {
	t.Helper()
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "document.png")
	_, _ = fw.Write(img.Bytes())
	_ = mw.Close()
	path := httpapi.PathUploadImg
	ev := at(t, token, path, "")
	if imageType != 0 {
		ev.RawPath, ev.RequestContext.HTTP.Path = httpapi.PathUploadImgAuth, httpapi.PathUploadImgAuth
		ev.RawQueryString = "imageType=" + strconv.Itoa(imageType)
	}
	ev.Headers["content-type"] = mw.FormDataContentType()
	ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body.Bytes()), true
	var up struct{ ID string }
	fntest.Call(t, e.h, ev, &up)
	return up.ID
}

// kycItems are every item of a user's verification partition (the
// applicant and its history).
func kycItems(t *testing.T, st store.Store, uid string) []store.Item {
	t.Helper()
	page, err := st.Query(context.Background(), store.Query{PK: "KYC#" + uid, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return page.Items
}

// TestKYCThroughTheFunction: the level list, an access token (the
// applicant made at Sumsub and recorded), then Sumsub's webhook as the
// edge forwards it: refused without the edge's key, refused with a wrong
// digest and nothing written, applied with the right one (the user is
// verified, with the name Sumsub read), and applied once.
func TestKYCThroughTheFunction(t *testing.T) {
	e := newIdentityEnv(t, "profile-kyc")
	uid, token := e.signUp(t, "kyc.user@tenger.example")

	var levels struct {
		Levels []struct {
			LevelName, ProviderLevel, Status string
		}
		KYCStatus int
		Provider  string
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_kyc_level_list.json", map[string]string{"token": token}), &levels)
	if len(levels.Levels) != 1 || levels.Levels[0].LevelName != "basic" || levels.Levels[0].ProviderLevel != "basic-kyc-level" ||
		levels.Levels[0].Status != "unverified" || levels.KYCStatus != 0 || levels.Provider != "sumsub" {
		t.Fatalf("levels %+v", levels)
	}

	var tok struct {
		Token, UserID, LevelName, ProviderLevelName, ApplicantID, Provider string
		TTLInSecs                                                          int64
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_kyc_access_token.json", map[string]string{"token": token, "levelName": "basic"}), &tok)
	applicantID := e.sumsub.applicants[uid]
	if applicantID == "" || tok.ApplicantID != applicantID || tok.Token != "_act-sbx-jwt-"+uid+"-basic-kyc-level" || tok.UserID != uid ||
		tok.LevelName != "basic" || tok.ProviderLevelName != "basic-kyc-level" || tok.Provider != "sumsub" || tok.TTLInSecs != 600 {
		t.Fatalf("access token %+v (Sumsub applicant %q)", tok, applicantID)
	}

	createdAt := time.Now().Add(time.Minute)
	webhook := func(digestSecret string) events.APIGatewayV2HTTPRequest {
		ev := fntest.SampleEvent(t, "http_kyc_webhook.json", map[string]string{"applicantId": applicantID, "uid": uid,
			"inspectionId": "65a1b2c3d4e5f6a7b8c9d0f1", "correlationId": "req-7c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
			"createdAtMs": sumsub.FormatTime(createdAt.UnixMilli()), "originKey": originKey, "userAgent": "sumsub-webhook-test"})
		d, err := sumsub.Digest(sumsub.AlgSHA256, []byte(digestSecret), []byte(ev.Body))
		if err != nil {
			t.Fatal(err)
		}
		ev.Headers["x-payload-digest"] = d
		return ev
	}
	before := kycItems(t, e.st, uid)
	if len(before) != 1 || before[0].Str("reviewStatus") != "init" {
		t.Fatalf("before the webhook: %v", before)
	}
	eventKey := func() store.Key {
		var p sumsub.Payload
		if err := json.Unmarshal([]byte(webhook(sumsubWebhookSecret).Body), &p); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte("sumsub|" + p.Type + "|" + p.CorrelationID + "|" + strconv.FormatInt(sumsub.ParseTime(p.CreatedAtMs), 10)))
		return store.Key{PK: "KYC#EVENT#" + hex.EncodeToString(sum[:]), SK: "E"}
	}()

	// Around the edge (no origin key): refused before the handler.
	ev := webhook(sumsubWebhookSecret)
	delete(ev.Headers, "x-tenger-origin")
	if resp, err := e.edge(context.Background(), ev); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("webhook without the edge's key: %d %v", resp.StatusCode, err)
	}
	// A digest made with another secret: 401, nothing written.
	resp, env := fntest.Do(t, e.edge, webhook("not-the-webhook-secret"))
	if resp.StatusCode != http.StatusUnauthorized || env.Code != apperr.CodeKYCWebhookDigest {
		t.Fatalf("wrong digest: %d %+v", resp.StatusCode, env)
	}
	if after := kycItems(t, e.st, uid); len(after) != len(before) || after[0].Str("reviewStatus") != "init" {
		t.Fatalf("a refused webhook wrote %v", after)
	}
	if _, err := e.st.Get(context.Background(), eventKey); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused webhook recorded its event key: %v", err)
	}
	if p, err := e.st.Get(context.Background(), auth.ProfileKey(uid)); err != nil || p.Int(auth.AttrKYCStatus) != 0 {
		t.Fatalf("profile after a refused webhook: %v %v", p, err)
	}

	// The right digest: applied, the user verified with Sumsub's name.
	var res struct {
		Applied, Duplicate bool
		KYCStatus          int
	}
	fntest.Call(t, e.edge, webhook(sumsubWebhookSecret), &res)
	if !res.Applied || res.Duplicate || res.KYCStatus != 2 {
		t.Fatalf("webhook %+v", res)
	}
	if _, err := e.st.Get(context.Background(), eventKey); err != nil {
		t.Fatalf("the applied webhook's event key: %v", err)
	}
	var info struct {
		KYCStatus int
		RealName  string
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": token}), &info)
	if info.KYCStatus != 2 || !strings.Contains(info.RealName, "Dorj") {
		t.Fatalf("user_info after the review %+v", info)
	}
	// Sumsub sends it again: applied once.
	fntest.Call(t, e.edge, webhook(sumsubWebhookSecret), &res)
	if res.Applied || !res.Duplicate {
		t.Fatalf("replayed webhook %+v", res)
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_kyc_level_list.json", map[string]string{"token": token}), &levels)
	if levels.KYCStatus != 2 || levels.Levels[0].Status != "verified" {
		t.Fatalf("levels after the review %+v", levels)
	}
}

// TestCorporateThroughTheFunction: an application saved step by step
// (step 2 as the web app sends it, documents uploaded to the bucket and
// attached), refused while incomplete, then submitted for review.
func TestCorporateThroughTheFunction(t *testing.T) {
	e := newIdentityEnv(t, "profile-corporate")
	_, token := e.signUp(t, "corp.user@tenger.example")
	step := func(path, body string) map[string]any {
		t.Helper()
		var out map[string]any
		fntest.Call(t, e.h, at(t, token, path, body), &out)
		return out
	}
	step(httpapi.PathCorpSaveBaseInfo, `{"step":1,"applicant":{"fullName":"Bat-Erdene Dorj","position":"CFO","email":"cfo@steppe.mn","phone":"+976 8800 1122"}}`)
	var v map[string]any
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_company_save_base_info.json", map[string]string{"token": token}), &v)
	if v["status"] != "draft" || v["company"].(map[string]any)["entityName"] != "Steppe Trading LLC" {
		t.Fatalf("step 2 %+v", v)
	}
	// Submitting now is refused with what is missing.
	_, env := fntest.Do(t, e.h, fntest.SampleEvent(t, "http_company_confirm_submit.json", map[string]string{"token": token}))
	if env.Code != apperr.CodeCorpIncomplete {
		t.Fatalf("early submit %+v", env)
	}
	step(httpapi.PathCorpCompanyUser, `{"people":[{"name":"Bat-Erdene Dorj","roles":["director","owner"],"nationality":"MN",`+
		`"dateOfBirth":"1980-05-01","ownershipPercent":"100"}],"allOwnersListed":true}`)
	files := map[string]string{}
	for _, kind := range []string{"certificate_of_incorporation", "articles_of_association", "proof_of_address", "representative_id"} {
		files[kind] = e.upload(t, token, 2)
		if obj, ok := e.s3.Object("uploads/" + files[kind]); !ok || obj.ContentType != "image/png" {
			t.Fatalf("%s not in the bucket: %+v", kind, obj)
		}
	}
	step(httpapi.PathCorpAttachment, `{"files":[`+
		`{"kind":"certificate_of_incorporation","uploadId":"`+files["certificate_of_incorporation"]+`"},`+
		`{"kind":"articles_of_association","uploadId":"`+files["articles_of_association"]+`"},`+
		`{"kind":"proof_of_address","uploadId":"`+files["proof_of_address"]+`"},`+
		`{"kind":"representative_id","uploadId":"`+files["representative_id"]+`","personId":"p1"}]}`)
	// An upload id that is not the user's is refused.
	_, env = fntest.Do(t, e.h, at(t, token, httpapi.PathCorpAttachment, `{"files":[{"kind":"other","uploadId":"not-an-upload-of-mine"}]}`))
	if env.Code != apperr.CodeCorpUploadNotFound {
		t.Fatalf("foreign upload attached: %+v", env)
	}
	v = step(httpapi.PathCorpSaveBaseInfo, `{"step":5,"questionnaire":{"monthlyVolume":"100k_1m","purposes":["treasury"],`+
		`"pep":false,"sanctions":false,"accuracyConfirmed":true}}`)
	if v["canSubmit"] != true {
		t.Fatalf("complete application %+v", v)
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_company_confirm_submit.json", map[string]string{"token": token}), &v)
	if v["status"] != "pending" || v["editable"] != false {
		t.Fatalf("submitted %+v", v)
	}
	var st map[string]any
	fntest.Call(t, e.h, at(t, token, httpapi.PathCorpStatus, `{}`), &st)
	if st["status"] != "pending" || st["accountType"] != "regular" {
		t.Fatalf("status %+v", st)
	}
}

// TestSupportTicketThroughTheFunction: a ticket opened with a screenshot
// uploaded first, read back with its thread; another user cannot read it,
// and the operators' queue lists it (gsi2).
func TestSupportTicketThroughTheFunction(t *testing.T) {
	e := newIdentityEnv(t, "profile-support")
	uid, token := e.signUp(t, "ticket.user@tenger.example")
	_, other := e.signUp(t, "other.user@tenger.example")
	shot := e.upload(t, token, 0)
	var created struct {
		ID, Status, Type, Title string
		Messages                int
		Thread                  []struct {
			By          string
			Attachments []string
		}
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_question_create_problem.json", map[string]string{"token": token, "attachment": shot}), &created)
	if created.ID == "" || created.Status != "open" || created.Type != "withdrawal" || created.Messages != 1 ||
		len(created.Thread) != 1 || len(created.Thread[0].Attachments) != 1 || created.Thread[0].Attachments[0] != shot {
		t.Fatalf("created %+v", created)
	}
	var detail struct {
		ID, Status string
		Thread     []struct {
			Seq         int
			By, Text    string
			Attachments []string
		}
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_question_details_problem.json", map[string]string{"token": token, "id": created.ID}), &detail)
	if detail.ID != created.ID || len(detail.Thread) != 1 || detail.Thread[0].By != "user" ||
		!strings.Contains(detail.Thread[0].Text, "Khan Bank") {
		t.Fatalf("details %+v", detail)
	}
	_, env := fntest.Do(t, e.h, fntest.SampleEvent(t, "http_question_details_problem.json", map[string]string{"token": other, "id": created.ID}))
	if env.Code != apperr.CodeTicketNotFound {
		t.Fatalf("another user's read %+v", env)
	}
	// Another user's upload cannot be attached.
	ev := fntest.SampleEvent(t, "http_question_create_problem.json", map[string]string{"token": other, "attachment": shot})
	if _, env = fntest.Do(t, e.h, ev); env.Code != apperr.CodeTicketAttachment {
		t.Fatalf("foreign attachment %+v", env)
	}
	var list struct {
		Count int
		List  []struct{ ID string }
	}
	fntest.Call(t, e.h, at(t, token, "/fe-ex-api/question/problem_list", `{}`), &list)
	if list.Count != 1 || list.List[0].ID != created.ID {
		t.Fatalf("list %+v (uid %s)", list, uid)
	}
}

// TestCancellationCheckThroughTheFunction: a fresh account may be
// cancelled (with the e-mail code); money in it blocks that, and the
// check names the balance.
func TestCancellationCheckThroughTheFunction(t *testing.T) {
	e := newIdentityEnv(t, "profile-cancel")
	uid, token := e.signUp(t, "leaving.user@tenger.example")
	type info struct {
		CanCancel bool
		Reasons   []struct {
			Type, Code string
			Count      int
			Balances   []struct{ Coin, Total string }
		}
		NeedEmailCode bool
	}
	var got info
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_user_check_cancellation.json", map[string]string{"token": token}), &got)
	if !got.CanCancel || len(got.Reasons) != 0 || !got.NeedEmailCode {
		t.Fatalf("fresh account %+v", got)
	}
	// A deposit arrives (the test's own posting, as the engine's
	// projection or a credit would write it).
	if _, err := ledger.New(e.st, time.Now).Post(context.Background(), ledger.Posting{ID: "cancel-test-deposit", Reason: "test",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount(uid, ledger.Spot), "USDT", decimal.NewFromInt(25))}}); err != nil {
		t.Fatal(err)
	}
	fntest.Call(t, e.h, fntest.SampleEvent(t, "http_user_check_cancellation.json", map[string]string{"token": token}), &got)
	if got.CanCancel || len(got.Reasons) != 1 || got.Reasons[0].Type != "balance" || got.Reasons[0].Code != apperr.CodeCancelBalance ||
		len(got.Reasons[0].Balances) != 1 || got.Reasons[0].Balances[0].Coin != "USDT" || got.Reasons[0].Balances[0].Total != "25" {
		t.Fatalf("funded account %+v", got)
	}
}

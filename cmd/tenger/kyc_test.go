package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	pngenc "image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tenger/internal/auth"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// kycData is a data directory whose store holds one user's profile.
func kycData(t *testing.T, uid string) string {
	t.Helper()
	dir := t.TempDir()
	st, err := embedded.Open(filepath.Join(dir, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	k := auth.ProfileKey(uid)
	if err := st.Put(context.Background(), store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": uid, auth.AttrKYCStatus: 0}, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runKYCCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := kycCommand(&out, args)
	return out.String(), err
}

func TestKYCCommands(t *testing.T) {
	data := kycData(t, "10000001")
	must := func(args ...string) string {
		t.Helper()
		out, err := runKYCCmd(t, append([]string{"--data", data}, args...)...)
		if err != nil {
			t.Fatalf("tenger kyc %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	out := must("limits")
	if !strings.Contains(out, "unverified") || !strings.Contains(out, "1000") || !strings.Contains(out, "basic-kyc-level") ||
		!strings.Contains(out, "100000") {
		t.Fatalf("limits:\n%s", out)
	}
	// Flags after the verbs, as the brief's example writes them.
	out = must("limits", "set", "--level", "unverified", "--withdraw-daily-usdt", "500")
	if !strings.Contains(out, "unverified") || !strings.Contains(out, "500 ") {
		t.Fatalf("limits set:\n%s", out)
	}
	out = must("levels", "add", "advanced", "--provider-level", "advanced-kyc-level", "--withdraw-daily-usdt", "500000",
		"--description", "Proof of address")
	if !strings.Contains(out, "advanced-kyc-level") || !strings.Contains(out, "500000") {
		t.Fatalf("levels add:\n%s", out)
	}
	for _, bad := range [][]string{
		{"limits", "set", "--level", "gold", "--withdraw-daily-usdt", "5"},
		{"limits", "set", "--level", "basic", "--withdraw-daily-usdt", "-5"},
		{"levels", "add", "basic", "--provider-level", "x", "--withdraw-daily-usdt", "5"},
		{"reject", "10000001"},
		{"approve", "99999999"},
		{"frobnicate"},
		{"list", "--status", "maybe"},
	} {
		if out, err := runKYCCmd(t, append([]string{"--data", data}, bad...)...); err == nil {
			t.Errorf("tenger kyc %s succeeded:\n%s", strings.Join(bad, " "), out)
		}
	}
	if _, err := runKYCCmd(t, "--data", filepath.Join(data, "nowhere"), "list"); err == nil || !strings.Contains(err.Error(), "no store") {
		t.Fatalf("a data directory without a store: %v", err)
	}

	out = must("--as", "alice", "--note", "passport seen at the office", "approve", "10000001")
	if !strings.Contains(out, "10000001: verified") {
		t.Fatalf("approve: %s", out)
	}
	if out = must("list", "--status", "verified"); !strings.Contains(out, "10000001") {
		t.Fatalf("list verified:\n%s", out)
	}
	if out = must("list"); strings.Contains(out, "10000001") {
		t.Fatalf("list pending:\n%s", out)
	}
	out = must("reject", "10000001", "--as", "bob", "--reason", "The passport is forged", "--labels", "FORGERY,GRAPHIC_EDITOR", "--type", "final")
	if !strings.Contains(out, "10000001: rejected") || !strings.Contains(out, "RED FINAL") {
		t.Fatalf("reject: %s", out)
	}
	out = must("show", "10000001")
	for _, want := range []string{"status      rejected", "FORGERY,GRAPHIC_EDITOR", "The passport is forged", "passport seen at the office",
		"operator (alice)", "operator (bob)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("show lacks %q:\n%s", want, out)
		}
	}
	st, err := embedded.Open(filepath.Join(data, "store"), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Get(context.Background(), auth.ProfileKey("10000001"))
	if err != nil || p.Int(auth.AttrKYCStatus) != 3 || p.Str(auth.AttrKYCRejectReason) != "The passport is forged" {
		t.Fatalf("profile %+v %v", p, err)
	}
}

// uploadDocument uploads a small PNG as an identity document page
// (upload_img_auth?imageType=1) and answers its upload id.
func uploadDocument(t *testing.T, base, token string) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 32, 20))
	for x := range 32 {
		img.Set(x, x%20, color.RGBA{R: 200, A: 255})
	}
	var png bytes.Buffer
	if err := pngenc.Encode(&png, img); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "passport.png")
	_, _ = fw.Write(png.Bytes())
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, base+"/fe-ex-api/common/upload_img_auth?imageType=1", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("exchange-token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Code string
		Msg  string
		Data struct{ ID string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Code != "0" || env.Data.ID == "" {
		t.Fatalf("upload: %v %+v", err, env)
	}
	return env.Data.ID
}

// TestKYCSimulatorEndToEnd runs `tenger serve --dev`: the web app's calls,
// the simulator's page and form, the reviewer's answer sent to the
// server's own webhook route signed as Sumsub signs, the profile and the
// level list after it; then, with the server stopped, the operator's view.
func TestKYCSimulatorEndToEnd(t *testing.T) {
	s := startSpotServer(t)
	base := "http://" + s.addr
	api := newSpotAPI(t, s.addr)
	tok, err := benchSignUp(context.Background(), api.api, "kyc-e2e@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var me struct {
		ID        string `json:"id"`
		KYCStatus int    `json:"kycStatus"`
		KYCLevel  string `json:"kycLevel"`
		RealName  string `json:"realName"`
	}
	api.ok("/fe-ex-api/common/user_info", tok, map[string]any{}, &me)
	if me.KYCStatus != 0 {
		t.Fatalf("new user %+v", me)
	}
	var token struct {
		Token, Provider, SimulatorURL, ApplicantID string
	}
	api.ok("/fe-ex-api/sumsub/get_access_token", tok, map[string]any{}, &token)
	if token.Provider != "simulator" || !strings.HasPrefix(token.SimulatorURL, "/dev/kyc?accessToken=") {
		t.Fatalf("token %+v", token)
	}
	resp, err := http.Get(base + token.SimulatorURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `action="/dev/kyc/submit"`) {
		t.Fatalf("page %d %s", resp.StatusCode, page)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	submit := func(uploadID string) (int, string) {
		t.Helper()
		resp, err := noRedirect.PostForm(base+"/dev/kyc/submit", url.Values{"accessToken": {token.Token}, "firstName": {"Bat"},
			"lastName": {"Dorj"}, "dob": {"1990-03-14"}, "country": {"MNG"}, "idDocNumber": {"E1234567"}, "uploadId": {uploadID}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// The document image must be an upload of the user's (the upload
	// service is connected in --dev).
	if code, body := submit("no-such-upload"); code != http.StatusBadRequest || !strings.Contains(body, "File not found") {
		t.Fatalf("submit with an unknown upload %d %s", code, body)
	}
	if code, _ := submit(uploadDocument(t, base, tok)); code != http.StatusSeeOther {
		t.Fatalf("submit %d", code)
	}
	api.ok("/fe-ex-api/common/user_info", tok, map[string]any{}, &me)
	if me.KYCStatus != 1 {
		t.Fatalf("after submit %+v", me)
	}
	var delivery struct {
		HTTPStatus int    `json:"httpStatus"`
		Code       string `json:"code"`
	}
	api.ok("/dev/kyc/review", "", map[string]any{"userId": me.ID, "answer": "GREEN"}, &delivery)
	if delivery.HTTPStatus != 200 || delivery.Code != "0" {
		t.Fatalf("review %+v", delivery)
	}
	api.ok("/fe-ex-api/common/user_info", tok, map[string]any{}, &me)
	if me.KYCStatus != 2 || me.KYCLevel != "basic" || me.RealName != "Bat Dorj" {
		t.Fatalf("after review %+v", me)
	}
	var levels struct {
		KYCStatus         int    `json:"kycStatus"`
		WithdrawDailyUSDT string `json:"withdrawDailyUsdt"`
		Levels            []struct{ Status string }
	}
	api.ok("/fe-ex-api/sumsub/v2/get_level_list", tok, map[string]any{}, &levels)
	if levels.KYCStatus != 2 || levels.WithdrawDailyUSDT != "100000" || len(levels.Levels) != 1 || levels.Levels[0].Status != "verified" {
		t.Fatalf("levels %+v", levels)
	}
	// Someone else's webhook, unsigned by our secret: 401, nothing changes.
	forged, _ := json.Marshal(map[string]any{"applicantId": token.ApplicantID, "externalUserId": me.ID, "type": "applicantReviewed",
		"levelName": "basic-kyc-level", "createdAtMs": time.Now().UTC().Format("2006-01-02 15:04:05.000"),
		"reviewResult": map[string]any{"reviewAnswer": "RED", "reviewRejectType": "FINAL"}})
	req, _ := http.NewRequest(http.MethodPost, base+"/fe-ex-api/sumsub/webhook", bytes.NewReader(forged))
	req.Header.Set("X-Payload-Digest-Alg", "HMAC_SHA256_HEX")
	req.Header.Set("X-Payload-Digest", strings.Repeat("ab", 32))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var env struct{ Code string }
	_ = json.NewDecoder(resp.Body).Decode(&env)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || env.Code != "16005" {
		t.Fatalf("forged webhook %d %+v", resp.StatusCode, env)
	}
	api.ok("/fe-ex-api/common/user_info", tok, map[string]any{}, &me)
	if me.KYCStatus != 2 {
		t.Fatalf("after the forged webhook %+v", me)
	}

	// The operator's command: refused while the server holds the store,
	// then it shows the history.
	if out, err := exec.Command(s.bin, "kyc", "--data", s.data, "show", me.ID).CombinedOutput(); err == nil || !strings.Contains(string(out), "stop tenger serve first") {
		t.Fatalf("kyc show while serving: %v\n%s", err, out)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop")
	}
	out, err := exec.Command(s.bin, "kyc", "--data", s.data, "show", me.ID).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "status      verified") || !strings.Contains(string(out), "applicantPending") ||
		!strings.Contains(string(out), "applicantReviewed") || !strings.Contains(string(out), "simulator") {
		t.Fatalf("kyc show: %v\n%s", err, out)
	}
	out, err = exec.Command(s.bin, "kyc", "--data", s.data, "--status", "verified", "list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), me.ID) {
		t.Fatalf("kyc list: %v\n%s", err, out)
	}
}

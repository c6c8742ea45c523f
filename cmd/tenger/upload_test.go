package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/httpapi"
)

// signedUp signs a user up and in on the assembled server (the outbox
// gives the e-mail code) and returns the session token.
func signedUp(t *testing.T, h http.Handler, email string) string {
	t.Helper()
	if _, env := post(t, h, "/fe-ex-api/v4/common/emailValidCode", `{"email":"`+email+`","operationType":1}`, nil); env.Code != "0" {
		t.Fatalf("email code: %+v", env)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/dev/outbox?to="+email, nil))
	var sent []struct{ Code string }
	if err := json.Unmarshal(rec.Body.Bytes(), &sent); err != nil || len(sent) == 0 {
		t.Fatalf("outbox: %s", rec.Body.String())
	}
	if _, env := post(t, h, "/fe-ex-api/user/register", `{"email":"`+email+`","loginPword":"Passw0rd1","code":"`+sent[len(sent)-1].Code+`"}`, nil); env.Code != "0" {
		t.Fatalf("register: %+v", env)
	}
	_, env := post(t, h, "/fe-ex-api/user/login_in", `{"email":"`+email+`","loginPword":"Passw0rd1"}`, nil)
	var login struct{ Token string }
	if env.Code != "0" || json.Unmarshal(env.Data, &login) != nil || login.Token == "" {
		t.Fatalf("login: %+v", env)
	}
	return login.Token
}

// `tenger serve` takes an upload, serves it back to its owner only, with
// the file's own security headers over the site's, and documents the
// upload routes in /openapi.json.
func TestServeUploads(t *testing.T) {
	_, h := testServer(t)
	owner, other := signedUp(t, h, "upload.owner@example.com"), signedUp(t, h, "upload.other@example.com")

	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 12, 9))); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "passport.png")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(img.Bytes())
	_ = mw.Close()
	req := httptest.NewRequest(http.MethodPost, httpapi.PathUploadImgAuth+"?imageType=1", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set(httpapi.HeaderToken, owner)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var env struct {
		Code string
		Data struct{ ID, URL string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Code != "0" || env.Data.URL == "" {
		t.Fatalf("upload: %d %s", rec.Code, rec.Body.String())
	}

	read := func(token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, env.Data.URL, nil)
		req.Header.Set(httpapi.HeaderToken, token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	rec = read(owner)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" ||
		!strings.Contains(rec.Header().Get("Content-Security-Policy"), "sandbox") || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("owner read: %d %v", rec.Code, rec.Header())
	}
	if _, err := png.Decode(rec.Body); err != nil {
		t.Fatalf("served file: %v", err)
	}
	rec = read(other)
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"code":"`+apperr.CodeUploadNotFound+`"`) {
		t.Fatalf("other user's read: %d %s", rec.Code, rec.Body.String())
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{httpapi.PathUploadImg: "post", httpapi.PathUploadImgAuth: "post", httpapi.PathUploadFile: "get"} {
		if _, ok := doc.Paths[path][method]; !ok {
			t.Errorf("/openapi.json lacks %s %s", method, path)
		}
	}
}

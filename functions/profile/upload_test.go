package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/rs/zerolog"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/upload/s3store"
	"tenger/internal/upload/s3store/s3fake"
)

// TestUploadsThroughTheFunction drives the upload calls through the
// profile function as API Gateway sends them (a multipart body,
// base64-encoded in the payload v2 event), on DynamoDB Local and a fake
// S3: the file is checked and stored encrypted in the bucket, the owner's
// read is a redirect to a presigned URL that serves it, and another
// user's read of the same id is not found.
func TestUploadsThroughTheFunction(t *testing.T) {
	st := fntest.Table(t, "profile-upload")
	s3 := s3fake.New()
	srv := httptest.NewServer(s3)
	t.Cleanup(srv.Close)
	box := &fntest.Recorder{}
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Store: st, Notify: box, Log: zerolog.Nop(), Now: time.Now, Coins: cc, Markets: markets.Defaults(),
		Config:      platform.Config{Stage: "test", SecureCookies: true},
		UploadFiles: s3store.New(s3.Client(srv.URL), s3.Bucket, s3store.Options{Prefix: "uploads/"})}
	h := awslambda.NewRuntime("profile", io.Discard).HTTP(newHandler(d))
	call := func(ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPResponse {
		t.Helper()
		resp, err := h(lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: "upload-test"}), ev)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	signUp := func(email string) string {
		t.Helper()
		as := func(name string, fill map[string]string) events.APIGatewayV2HTTPRequest {
			ev := fntest.SampleEvent(t, name, fill)
			ev.Body = strings.ReplaceAll(ev.Body, "sample.user@tenger.example", email)
			return ev
		}
		if _, env := fntest.Do(t, h, as("http_email_code.json", nil)); env.Code != "0" {
			t.Fatalf("email code: %+v", env)
		}
		if _, env := fntest.Do(t, h, as("http_register.json", map[string]string{"code": box.LastCode(email)})); env.Code != "0" {
			t.Fatalf("register: %+v", env)
		}
		ev := fntest.SampleEvent(t, "http_login.json", nil)
		raw, _ := base64.StdEncoding.DecodeString(ev.Body)
		ev.Body = base64.StdEncoding.EncodeToString([]byte(strings.ReplaceAll(string(raw), "sample.user@tenger.example", email)))
		var login struct{ Token string }
		fntest.Call(t, h, ev, &login)
		return login.Token
	}
	owner, other := signUp("upload.owner@tenger.example"), signUp("upload.other@tenger.example")

	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 20, 10))); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "passport.jpg")
	_, _ = fw.Write(img.Bytes())
	_ = mw.Close()
	ev := fntest.SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": owner})
	ev.RawPath, ev.RequestContext.HTTP.Path = httpapi.PathUploadImgAuth, httpapi.PathUploadImgAuth
	ev.RawQueryString = "imageType=1"
	ev.Headers["content-type"] = mw.FormDataContentType()
	ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body.Bytes()), true
	var up struct {
		ID, ContentType, URL string
		ImageType            int
	}
	fntest.Call(t, h, ev, &up)
	if up.ContentType != "image/png" || up.ImageType != 1 || up.URL == "" {
		t.Fatalf("upload answer %+v", up)
	}
	obj, ok := s3.Object("uploads/" + up.ID)
	if !ok || obj.SSE != "AES256" || obj.ContentType != "image/png" {
		t.Fatalf("object in the bucket: %+v %v", obj, ok)
	}

	read := func(token string) events.APIGatewayV2HTTPResponse {
		ev := fntest.SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": token})
		path, query, _ := strings.Cut(up.URL, "?")
		ev.RawPath, ev.RequestContext.HTTP.Path, ev.RawQueryString = path, path, query
		ev.RequestContext.HTTP.Method, ev.Body = http.MethodGet, ""
		delete(ev.Headers, "content-type")
		return call(ev)
	}
	resp := read(owner)
	loc := resp.Headers["Location"]
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc, srv.URL+"/"+s3.Bucket+"/uploads/"+up.ID+"?") ||
		resp.Headers["Cache-Control"] != "private, no-store" {
		t.Fatalf("owner read: %d %v", resp.StatusCode, resp.Headers)
	}
	got, err := http.Get(loc)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Body.Close()
	b, _ := io.ReadAll(got.Body)
	if _, err := png.Decode(bytes.NewReader(b)); got.StatusCode != http.StatusOK || got.Header.Get("Content-Type") != "image/png" || err != nil {
		t.Fatalf("presigned read: %d %q %v", got.StatusCode, got.Header.Get("Content-Type"), err)
	}

	resp = read(other)
	var env fntest.Envelope
	if err := json.Unmarshal([]byte(resp.Body), &env); err != nil || resp.StatusCode != http.StatusNotFound || env.Code != apperr.CodeUploadNotFound {
		t.Fatalf("other user's read: %d %s", resp.StatusCode, resp.Body)
	}
}

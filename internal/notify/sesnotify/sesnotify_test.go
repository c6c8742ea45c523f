package sesnotify

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"tenger/internal/notify"
)

type sendEmailBody struct {
	FromEmailAddress     string
	ConfigurationSetName string
	Destination          struct{ ToAddresses []string }
	Content              struct {
		Simple struct {
			Subject struct{ Data, Charset string }
			Body    struct {
				Text struct{ Data, Charset string }
			}
		}
	}
}

type fakeSES struct {
	method, path string
	body         sendEmailBody
	fail         bool
}

func (f *fakeSES) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.method, f.path = r.Method, r.URL.Path
	_ = json.NewDecoder(r.Body).Decode(&f.body)
	w.Header().Set("Content-Type", "application/json")
	if f.fail {
		w.Header().Set("X-Amzn-ErrorType", "MessageRejected")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"message":"Email address is not verified."}`))
		return
	}
	_, _ = w.Write([]byte(`{"MessageId":"m-1"}`))
}

func newEmail(t *testing.T, opts Options) (*Email, *fakeSES) {
	f := &fakeSES{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c := sesv2.New(sesv2.Options{Region: "ap-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	return New(c, opts), f
}

func TestSendEmailFields(t *testing.T) {
	e, f := newEmail(t, Options{From: "Tenger <no-reply@tenger.mn>", ConfigurationSet: "tenger-mail"})
	err := e.Send(context.Background(), notify.Message{Channel: notify.ChannelEmail, To: "bat@example.mn", OperationType: notify.OpEmail, Code: "246810"})
	if err != nil {
		t.Fatal(err)
	}
	if f.method != http.MethodPost || f.path != "/v2/email/outbound-emails" {
		t.Fatalf("request %s %s", f.method, f.path)
	}
	b := f.body
	if b.FromEmailAddress != "Tenger <no-reply@tenger.mn>" || b.ConfigurationSetName != "tenger-mail" ||
		len(b.Destination.ToAddresses) != 1 || b.Destination.ToAddresses[0] != "bat@example.mn" {
		t.Fatalf("body %+v", b)
	}
	s := b.Content.Simple
	if s.Subject.Data != "Tenger verification code" || s.Subject.Charset != "UTF-8" || !strings.Contains(s.Body.Text.Data, "246810") {
		t.Fatalf("content %+v", s)
	}
	// A caller's own subject and text are sent as they are.
	if err := e.Send(context.Background(), notify.Message{Channel: notify.ChannelEmail, To: "bat@example.mn", Subject: "Шинэ төхөөрөмж", Text: "Нэвтэрлээ."}); err != nil {
		t.Fatal(err)
	}
	if f.body.Content.Simple.Subject.Data != "Шинэ төхөөрөмж" || f.body.Content.Simple.Body.Text.Data != "Нэвтэрлээ." {
		t.Fatalf("custom content %+v", f.body.Content.Simple)
	}
}

func TestRejectedAndInvalid(t *testing.T) {
	e, f := newEmail(t, Options{From: "no-reply@tenger.mn"})
	f.fail = true
	err := e.Send(context.Background(), notify.Message{Channel: notify.ChannelEmail, To: "bat@example.mn", Code: "135790"})
	if err == nil || strings.Contains(err.Error(), "135790") {
		t.Fatalf("rejected send: %v (must fail without the code)", err)
	}
	if err := e.Send(context.Background(), notify.Message{Channel: notify.ChannelSMS, To: "+97688112233", Code: "1"}); !errors.Is(err, notify.ErrInvalid) {
		t.Fatalf("sms through SES: %v", err)
	}
	noFrom := New(nil, Options{})
	if err := noFrom.Send(context.Background(), notify.Message{Channel: notify.ChannelEmail, To: "a@b.mn", Code: "1"}); !errors.Is(err, notify.ErrInvalid) {
		t.Fatalf("no sender configured: %v", err)
	}
}

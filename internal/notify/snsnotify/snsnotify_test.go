package snsnotify

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"tenger/internal/notify"
)

type fakeSNS struct {
	mu    sync.Mutex
	forms []url.Values
	fail  bool
}

func (f *fakeSNS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f.mu.Lock()
	f.forms = append(f.forms, r.PostForm)
	fail := f.fail
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/xml")
	if fail {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>Invalid parameter: PhoneNumber</Message></Error><RequestId>r1</RequestId></ErrorResponse>`))
		return
	}
	_, _ = w.Write([]byte(`<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>m-1</MessageId></PublishResult><ResponseMetadata><RequestId>r1</RequestId></ResponseMetadata></PublishResponse>`))
}

func newSMS(t *testing.T, opts Options) (*SMS, *fakeSNS) {
	f := &fakeSNS{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c := sns.New(sns.Options{Region: "ap-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	return New(c, opts), f
}

// attr returns the value of the message attribute named name from the
// query-protocol form (MessageAttributes.entry.N.Name / .Value.StringValue).
func attr(form url.Values, name string) (string, bool) {
	for k, v := range form {
		if strings.HasPrefix(k, "MessageAttributes.entry.") && strings.HasSuffix(k, ".Name") && len(v) == 1 && v[0] == name {
			p := strings.TrimSuffix(k, ".Name")
			if form.Get(p+".Value.DataType") != "String" {
				return "", false
			}
			return form.Get(p + ".Value.StringValue"), true
		}
	}
	return "", false
}

func TestPublishFields(t *testing.T) {
	s, f := newSMS(t, Options{SenderID: "TENGER"})
	err := s.Send(context.Background(), notify.Message{Channel: notify.ChannelSMS, To: "+97688112233", OperationType: notify.OpWithdraw, Code: "482915"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.forms) != 1 {
		t.Fatalf("%d requests", len(f.forms))
	}
	form := f.forms[0]
	if form.Get("Action") != "Publish" || form.Get("PhoneNumber") != "+97688112233" {
		t.Fatalf("form %v", form)
	}
	if msg := form.Get("Message"); !strings.Contains(msg, "482915") || !strings.Contains(msg, "withdrawal") {
		t.Fatalf("message text %q", msg)
	}
	if form.Get("TopicArn") != "" || form.Get("TargetArn") != "" {
		t.Fatal("an SMS goes to the phone number, not a topic")
	}
	if v, ok := attr(form, "AWS.SNS.SMS.SMSType"); !ok || v != "Transactional" {
		t.Fatalf("SMSType %q %v", v, ok)
	}
	if v, ok := attr(form, "AWS.SNS.SMS.SenderID"); !ok || v != "TENGER" {
		t.Fatalf("SenderID %q %v", v, ok)
	}
}

func TestErrorsDoNotCarryTheCode(t *testing.T) {
	s, f := newSMS(t, Options{})
	f.fail = true
	err := s.Send(context.Background(), notify.Message{Channel: notify.ChannelSMS, To: "+97688112233", Code: "913370"})
	if err == nil {
		t.Fatal("a rejected publish must fail")
	}
	if strings.Contains(err.Error(), "913370") {
		t.Fatalf("error leaks the code: %v", err)
	}
	if err := s.Send(context.Background(), notify.Message{Channel: notify.ChannelEmail, To: "a@b.mn", Code: "1"}); !errors.Is(err, notify.ErrInvalid) {
		t.Fatalf("email through SNS: %v", err)
	}
}

// TestCallingCodes: with calling codes set, a number of another country is
// refused before SNS (nothing is published), one of an allowed country is
// sent; without any, every country is.
func TestCallingCodes(t *testing.T) {
	s, f := newSMS(t, Options{CallingCodes: []string{"976", "7"}})
	msg := func(to string) notify.Message {
		return notify.Message{Channel: notify.ChannelSMS, To: to, OperationType: notify.OpWithdraw, Code: "482915"}
	}
	for _, to := range []string{"+88216123456", "+4915112345678", "+1976555"} {
		if err := s.Send(context.Background(), msg(to)); !errors.Is(err, ErrCountryNotAllowed) || !errors.Is(err, notify.ErrInvalid) {
			t.Errorf("%s: %v", to, err)
		}
	}
	if len(f.forms) != 0 {
		t.Fatalf("published %d", len(f.forms))
	}
	for _, to := range []string{"+97688112233", "+79161234567"} {
		if err := s.Send(context.Background(), msg(to)); err != nil {
			t.Errorf("%s: %v", to, err)
		}
	}
	open, g := newSMS(t, Options{})
	if err := open.Send(context.Background(), msg("+4915112345678")); err != nil || len(g.forms) != 1 {
		t.Errorf("without calling codes: %v, %d published", err, len(g.forms))
	}
}

func TestParseCallingCodes(t *testing.T) {
	for in, want := range map[string][]string{
		"":              nil,
		"976":           {"976"},
		" +976 , 7 ,, ": {"976", "7"},
	} {
		if got := ParseCallingCodes(in); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

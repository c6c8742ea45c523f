package notify

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type recorder struct{ got []Message }

func (r *recorder) Send(_ context.Context, m Message) error { r.got = append(r.got, m); return nil }

func TestRouter(t *testing.T) {
	sms, mail := &recorder{}, &recorder{}
	r := Router{SMS: sms, Email: mail}
	ctx := context.Background()
	if err := r.Send(ctx, Message{Channel: ChannelSMS, To: "+97688112233", Code: "1"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Send(ctx, Message{Channel: ChannelEmail, To: "a@b.mn", Code: "2"}); err != nil {
		t.Fatal(err)
	}
	if len(sms.got) != 1 || sms.got[0].Code != "1" || len(mail.got) != 1 || mail.got[0].Code != "2" {
		t.Fatalf("routed sms %v email %v", sms.got, mail.got)
	}
	if err := (Router{SMS: sms}).Send(ctx, Message{Channel: ChannelEmail, To: "a@b.mn", Code: "3"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("no email sender: %v", err)
	}
}

func TestRender(t *testing.T) {
	_, text := Render(Message{Code: "777111", OperationType: OpAddBank})
	if !strings.Contains(text, "777111") || !strings.Contains(text, "bank") {
		t.Fatalf("text %q", text)
	}
	s, text := Render(Message{Subject: "S", Text: "T", Code: "9"})
	if s != "S" || text != "T" {
		t.Fatalf("own subject/text replaced: %q %q", s, text)
	}
}

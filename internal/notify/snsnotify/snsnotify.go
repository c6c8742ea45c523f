// Package snsnotify is the AWS SMS adapter of the notify port: one SNS
// Publish per message, straight to the phone number, typed Transactional so
// SNS routes it for delivery rather than cost. It sends SMS only; e-mail
// goes through sesnotify (see Router).
package snsnotify

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"

	"tenger/internal/notify"
)

// API is the part of the SNS client the adapter uses (*sns.Client has it).
type API interface {
	Publish(ctx context.Context, in *sns.PublishInput, optFns ...func(*sns.Options)) (*sns.PublishOutput, error)
}

// Options configure the adapter.
type Options struct {
	// SenderID is the alphanumeric sender shown where carriers allow it
	// (AWS.SNS.SMS.SenderID); empty leaves it to the account default.
	SenderID string
	// CallingCodes are the countries SMS may go to, as calling codes
	// ("976" for Mongolia): a number outside them is refused before SNS,
	// so nobody can make the exchange text premium numbers abroad. Empty
	// allows every country.
	CallingCodes []string
}

// ErrCountryNotAllowed refuses a number outside Options.CallingCodes.
var ErrCountryNotAllowed = fmt.Errorf("%w: sms to this country is not enabled", notify.ErrInvalid)

// SMS sends SMS through SNS.
type SMS struct {
	api  API
	opts Options
}

var _ notify.Sender = (*SMS)(nil)

// New returns the adapter.
func New(api API, opts Options) *SMS { return &SMS{api: api, opts: opts} }

// Send implements notify.Sender for ChannelSMS messages.
func (s *SMS) Send(ctx context.Context, m notify.Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if m.Channel != notify.ChannelSMS {
		return fmt.Errorf("%w: snsnotify sends sms only", notify.ErrInvalid)
	}
	if !s.allowed(m.To) {
		return ErrCountryNotAllowed
	}
	_, text := notify.Render(m)
	attrs := map[string]types.MessageAttributeValue{
		"AWS.SNS.SMS.SMSType": {DataType: aws.String("String"), StringValue: aws.String("Transactional")},
	}
	if s.opts.SenderID != "" {
		attrs["AWS.SNS.SMS.SenderID"] = types.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String(s.opts.SenderID)}
	}
	_, err := s.api.Publish(ctx, &sns.PublishInput{PhoneNumber: aws.String(m.To), Message: aws.String(text), MessageAttributes: attrs})
	if err != nil {
		// The SDK error describes the request, never its message text.
		return fmt.Errorf("notify: sns publish: %w", err)
	}
	return nil
}

// allowed reports whether an E.164 number ("+97699112233") is in one of the
// allowed countries.
func (s *SMS) allowed(to string) bool {
	if len(s.opts.CallingCodes) == 0 {
		return true
	}
	for _, c := range s.opts.CallingCodes {
		if strings.HasPrefix(to, "+"+c) {
			return true
		}
	}
	return false
}

// ParseCallingCodes reads a list of calling codes as the operator writes it
// ("976, +7"): separated by commas, a leading + and spaces ignored.
func ParseCallingCodes(v string) []string {
	var out []string
	for _, c := range strings.Split(v, ",") {
		if c = strings.TrimPrefix(strings.TrimSpace(c), "+"); c != "" {
			out = append(out, c)
		}
	}
	return out
}

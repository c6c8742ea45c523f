// Package kyctest is the contract suite of the verification provider port
// (kyc.Provider): every adapter runs it, Sumsub's against a recorder of
// Sumsub's documented answers that checks each request's signature, the
// simulator against its store.
package kyctest

import (
	"context"
	"errors"
	"testing"
	"time"

	"tenger/internal/kyc"
)

// Levels the suite uses: they must exist at the provider under test.
const (
	BasicLevel    = "basic-kyc-level"
	AdvancedLevel = "advanced-kyc-level"
)

// RunProvider runs the contract suite against the adapter mk builds.
// Every test uses its own users, so one adapter may serve them all.
func RunProvider(t *testing.T, mk func(t *testing.T) kyc.Provider) {
	ctx := context.Background()
	t.Run("one applicant per user", func(t *testing.T) {
		p := mk(t)
		a, err := p.CreateApplicant(ctx, "10000001", BasicLevel)
		if err != nil {
			t.Fatal(err)
		}
		if a.ID == "" || a.UserID != "10000001" || a.ProviderLevel != BasicLevel || a.ReviewStatus != kyc.ReviewInit {
			t.Fatalf("created %+v", a)
		}
		again, err := p.CreateApplicant(ctx, "10000001", BasicLevel)
		if err != nil {
			t.Fatal(err)
		}
		if again.ID != a.ID {
			t.Fatalf("second create made applicant %s, the user has %s", again.ID, a.ID)
		}
		other, err := p.CreateApplicant(ctx, "10000002", BasicLevel)
		if err != nil {
			t.Fatal(err)
		}
		if other.ID == a.ID {
			t.Fatalf("two users share applicant %s", a.ID)
		}
	})
	t.Run("status of a new applicant, then moved to another level", func(t *testing.T) {
		p := mk(t)
		a, err := p.CreateApplicant(ctx, "10000003", BasicLevel)
		if err != nil {
			t.Fatal(err)
		}
		st, err := p.ApplicantStatus(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.ReviewStatus != kyc.ReviewInit || st.ProviderLevel != BasicLevel || st.Answer != "" {
			t.Fatalf("status %+v", st)
		}
		if err := p.MoveToLevel(ctx, a.ID, AdvancedLevel); err != nil {
			t.Fatal(err)
		}
		st, err = p.ApplicantStatus(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.ProviderLevel != AdvancedLevel || st.ReviewStatus != kyc.ReviewInit {
			t.Fatalf("status after the move %+v", st)
		}
	})
	t.Run("access token bound to the user", func(t *testing.T) {
		p := mk(t)
		if _, err := p.CreateApplicant(ctx, "10000004", BasicLevel); err != nil {
			t.Fatal(err)
		}
		tok, err := p.AccessToken(ctx, "10000004", BasicLevel, 10*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if tok.Token == "" || tok.UserID != "10000004" {
			t.Fatalf("token %+v", tok)
		}
	})
	t.Run("unknown applicant", func(t *testing.T) {
		p := mk(t)
		if _, err := p.ApplicantStatus(ctx, "000000000000000000000000"); !errors.Is(err, kyc.ErrApplicantNotFound) {
			t.Fatalf("status of an unknown applicant: %v", err)
		}
		if _, err := p.ApplicantIdentity(ctx, "000000000000000000000000"); !errors.Is(err, kyc.ErrApplicantNotFound) {
			t.Fatalf("identity of an unknown applicant: %v", err)
		}
	})
}

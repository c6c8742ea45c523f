package corporate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
)

// The operator's review. Until an operator console exists it is run by
// `tenger corporate` on the data directory (or the AWS table); the user's
// routes never reach these.

// MaxReasons bounds a rejection's reasons.
const MaxReasons = 10

// List returns the applications in status, the longest waiting first.
func (s *Service) List(ctx context.Context, status string) ([]Application, error) {
	if !slices.Contains(Statuses, status) {
		return nil, fmt.Errorf("corporate: unknown status %q (%s)", status, strings.Join(Statuses, ", "))
	}
	return s.repo.list(ctx, status, s.now())
}

// Application returns uid's application for review.
func (s *Service) Application(ctx context.Context, uid string) (Application, error) {
	a, found, err := s.repo.get(ctx, uid)
	if err != nil {
		return Application{}, err
	}
	if !found {
		return Application{}, apperr.New(apperr.CodeCorpNoApplication)
	}
	return a, nil
}

// Approve approves uid's pending application and makes the user an
// enterprise account, in one transaction: neither happens without the
// other. reviewer names who decided, for the history.
func (s *Service) Approve(ctx context.Context, uid, reviewer string) (Application, error) {
	reviewer = reviewerName(reviewer)
	profile := auth.AccountTypeOp(uid, auth.AccountEnterprise, "").Named(opProfile)
	a, err := s.review(ctx, uid, func(a *Application, now int64) []store.Op {
		a.enter(StatusApproved, StatusApproved, now, reviewer, nil)
		a.Reasons = nil
		return []store.Op{profile}
	})
	if isFailed(err, opProfile) {
		return Application{}, fmt.Errorf("corporate: user %s has no profile", uid)
	}
	if err == nil {
		s.log.Info().Str("uid", uid).Str("reviewer", reviewer).Msg("corporate verification approved")
	}
	return a, err
}

// Reject rejects uid's pending application with reasons the user is
// shown; the user may edit it and submit it again.
func (s *Service) Reject(ctx context.Context, uid, reviewer string, reasons []string) (Application, error) {
	var clean []string
	for _, r := range reasons {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if err := text("reason", &r, maxLong, true); err != nil {
			return Application{}, apperr.New(apperr.CodeCorpReason, MaxReasons, maxLong)
		}
		clean = append(clean, r)
	}
	if len(clean) == 0 || len(clean) > MaxReasons {
		return Application{}, apperr.New(apperr.CodeCorpReason, MaxReasons, maxLong)
	}
	reviewer = reviewerName(reviewer)
	a, err := s.review(ctx, uid, func(a *Application, now int64) []store.Op {
		a.enter(StatusRejected, StatusRejected, now, reviewer, clean)
		a.Reasons = clean
		return nil
	})
	if err == nil {
		s.log.Info().Str("uid", uid).Str("reviewer", reviewer).Msg("corporate verification rejected")
	}
	return a, err
}

// review decides uid's pending application with decide, which changes
// it and returns the other operations of the transaction.
func (s *Service) review(ctx context.Context, uid string, decide func(a *Application, now int64) []store.Op) (Application, error) {
	if uid == "" {
		return Application{}, apperr.New(apperr.CodeCorpNoApplication)
	}
	return s.repo.mutate(ctx, uid, func(a *Application, found bool) (plan, error) {
		if !found {
			return plan{}, apperr.New(apperr.CodeCorpNoApplication)
		}
		if a.Status != StatusPending {
			return plan{}, apperr.New(apperr.CodeCorpNotPending, a.Status)
		}
		now := s.now().UnixMilli()
		extra := decide(a, now)
		a.ReviewedAt = now
		a.ReviewedBy = a.History[len(a.History)-1].By
		a.UpdatedAt = now
		return plan{write: true, extra: extra}, nil
	})
}

// reviewerName is the history's name of a reviewer: as given, or
// "operator" when nobody was named.
func reviewerName(name string) string {
	name = strings.TrimSpace(name)
	if err := text("reviewer", &name, maxShort, false); err != nil || name == "" {
		return "operator"
	}
	return name
}

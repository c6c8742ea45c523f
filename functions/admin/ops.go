package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"tenger/internal/account"
	"tenger/internal/apperr"
	"tenger/internal/awslambda"
	"tenger/internal/competition"
	"tenger/internal/corporate"
	"tenger/internal/earn"
	"tenger/internal/kyc"
	"tenger/internal/p2p"
	"tenger/internal/platform"
	"tenger/internal/support"
)

// Request is one operator action, the JSON payload of an invocation. Op
// names it; the other fields are its arguments (unknown fields are
// refused, so a misspelt one is not silently dropped):
//
//	kyc.list          [status: pending (default), rejected, verified, unverified]
//	kyc.show          uid
//	kyc.approve       uid, by [, level, note]
//	kyc.reject        uid, by, reason [, level, labels, rejectType RETRY|FINAL, note]
//	corporate.list    [status: pending (default), draft, approved, rejected]
//	corporate.show    uid
//	corporate.approve uid, by
//	corporate.reject  uid, by, reasons
//	support.list      [status: open (default), answered, closed, all]
//	support.show      id
//	support.reply     id, by, text
//	support.close     id, by
//	account.review    [all]
//	account.show      uid
//	account.reopen    uid, by [, note]
//	p2p.appeals       (the orders in appeal, the longest waiting first)
//	p2p.show          id (an order with its appeal and chat)
//	p2p.decide        id, by, outcome release|refund [, note]
//	p2p.merchant      uid, by, approve (true approves, false refuses)
//	competition.put   by, competition (a futures competition's definition, as `tenger competition create` reads it)
//	competition.list
//	competition.show  id (the competition, its top ranks with the users' ids, and the winners once final)
//	savings.put       by, product (a flexible savings product, as earn.SavingsProduct: created or replaced)
//	savings.list      (every savings product, by sort then id)
//	staking.put       by, product (a locked staking product, as earn.StakingProduct)
//	staking.list
//	launchpad.put     by, product (a launchpad sale, as earn.LaunchProject; its terms fixed once its subscription starts)
//	launchpad.list
//	loans.put         by, product (the crypto loans' settings, as earn.LoanConfig: every loan is checked again at the next run)
//	loans.show        (the settings in force: the defaults until put)
type Request struct {
	Op string `json:"op"`
	// By names the operator who decides (every action that changes
	// something requires it); it is kept with the decision.
	By  string `json:"by"`
	UID string `json:"uid"`
	// ID is a support ticket's id.
	ID     string `json:"id"`
	Status string `json:"status"`
	Level  string `json:"level"`
	// Reason (kyc.reject) is shown to the user; Note stays with operators.
	Reason     string   `json:"reason"`
	Labels     []string `json:"labels"`
	RejectType string   `json:"rejectType"`
	Note       string   `json:"note"`
	// Reasons (corporate.reject) are shown to the user.
	Reasons []string `json:"reasons"`
	// Text is a support answer.
	Text string `json:"text"`
	// All (account.review) lists every cancelled account, not only those
	// holding money.
	All bool `json:"all"`
	// Outcome (p2p.decide) is release (the escrow to the buyer) or refund
	// (back to the seller); Note is shown to both sides.
	Outcome string `json:"outcome"`
	// Approve (p2p.merchant) answers a merchant application.
	Approve bool `json:"approve"`
	// Competition (competition.put) is a competition's definition; the
	// schedule ranks it and pays its prizes (functions/competition).
	Competition *competition.Definition `json:"competition"`
	// Product (savings.put, staking.put, launchpad.put, loans.put) is the
	// product, sale or settings as `tenger earn ... set FILE` reads them;
	// decoded for its op, unknown fields refused.
	Product json.RawMessage `json:"product"`
}

// competitionShow is competition.show's answer.
type competitionShow struct {
	Competition competition.Competition    `json:"competition"`
	Ranks       []competition.OperatorRank `json:"ranks"`
	Winners     []competition.Winner       `json:"winners"`
	FinalAt     int64                      `json:"finalAt"`
}

// Response is an action's answer. A refusal (an unknown ticket, a reject
// without a reason, an application that is not pending) is OK false with
// the catalogue's code and message, not a function error: the function
// errors, and its alarm fires, only when something failed inside.
type Response struct {
	Op    string `json:"op"`
	OK    bool   `json:"ok"`
	Code  string `json:"code,omitempty"`
	Error string `json:"error,omitempty"`
	// RecordedBy is the name kept with a decision: By and the
	// invocation's request id (see recordedBy).
	RecordedBy string `json:"recordedBy,omitempty"`
	RequestID  string `json:"requestId,omitempty"`
	Result     any    `json:"result,omitempty"`
}

// ops runs the actions on the domain services `tenger` runs them on.
type ops struct {
	kyc       *kyc.Service
	corporate *corporate.Service
	support   *support.Service
	account   *account.Service
	p2p       *p2p.Service
	comp      *competition.Service
	// earn serves the products' operations only: it is built without the
	// engine or the ledger, which those calls do not use.
	earn *earn.Service
}

// newOps builds the services as the operator commands do: verification
// without a provider (decisions need none), the corporate review, the help
// desk telling owners of answers through the deployment's notifier (SES,
// SNS), and the accounts' side of cancellations.
func newOps(d *platform.Deps) *ops {
	return &ops{
		kyc:       d.KYC(),
		corporate: d.Corporate(),
		support: support.New(support.Options{Store: d.Store, Users: d.Auth(), Notify: d.Notify, Now: d.Now,
			Log: d.Log.With().Str("service", "support").Logger()}),
		account: account.New(account.Options{Store: d.Store, Auth: d.Auth(), Now: d.Now,
			Log: d.Log.With().Str("service", "account").Logger()}),
		p2p:  d.P2P(),
		comp: competition.New(competition.Options{Store: d.Store, Log: d.Log.With().Str("service", "competition").Logger()}),
		earn: earn.New(earn.Options{Store: failingStore{d.Store}, Coins: d.Coins, Now: d.Now,
			Log: d.Log.With().Str("service", "earn").Logger()}),
	}
}

// maxByLen bounds an operator's name: with recordedBy's tag it stays
// within what every domain keeps of a decider (100 characters: corporate's
// reviewer, kyc's decider, support's operator).
const maxByLen = 48

// mutating are the actions that change something: they require By.
var mutating = map[string]bool{"kyc.approve": true, "kyc.reject": true, "corporate.approve": true, "corporate.reject": true,
	"support.reply": true, "support.close": true, "account.reopen": true, "p2p.decide": true, "p2p.merchant": true,
	"competition.put": true, "savings.put": true, "staking.put": true, "launchpad.put": true, "loans.put": true}

// handler runs one action under the invocation's logging context.
func handler(rt *awslambda.Runtime, o *ops) func(context.Context, json.RawMessage) (Response, error) {
	return func(ctx context.Context, payload json.RawMessage) (Response, error) {
		ctx, log := rt.Begin(ctx, "")
		var req Request
		dec := json.NewDecoder(bytes.NewReader(payload))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return refused(Response{}, apperr.Param("payload: "+err.Error())), nil
		}
		resp := Response{Op: req.Op}
		if lc, ok := lambdacontext.FromContext(ctx); ok {
			resp.RequestID = lc.AwsRequestID
		}
		if mutating[req.Op] {
			by, err := checkBy(req.By)
			if err != nil {
				return refused(resp, err), nil
			}
			resp.RecordedBy = recordedBy(by, resp.RequestID)
		}
		result, err := o.run(ctx, req, resp.RecordedBy)
		ev := log.Info()
		if err != nil {
			ae := apperr.As(err)
			if ae.Entry.Code == apperr.CodeInternal {
				log.Error().Err(err).Str("op", req.Op).Str("by", resp.RecordedBy).Str("uid", req.UID).Str("ticket", req.ID).
					Msg("operator action failed")
				return Response{}, fmt.Errorf("admin: %s: %w", req.Op, err)
			}
			ev = log.Warn().Str("code", ae.Entry.Code)
			resp = refused(resp, ae)
		} else {
			resp.OK, resp.Result = true, result
		}
		// Every action is logged with who asked and the request id, which
		// CloudTrail's record of the invocation (Lambda data events, when the
		// account logs them) carries with the caller's IAM identity.
		ev.Str("op", req.Op).Str("by", resp.RecordedBy).Str("uid", req.UID).Str("ticket", req.ID).Bool("ok", resp.OK).
			Msg("operator action")
		return resp, nil
	}
}

// refused fills resp with a refusal's code and English message.
func refused(resp Response, err error) Response {
	ae := apperr.As(err)
	resp.OK, resp.Code, resp.Error = false, ae.Entry.Code, ae.Message(apperr.LangEN)
	return resp
}

// checkBy trims an operator's name and checks it: 1 to maxByLen printable
// characters.
func checkBy(by string) (string, error) {
	by = strings.TrimSpace(by)
	if by == "" || utf8.RuneCountInString(by) > maxByLen || !utf8.ValidString(by) ||
		strings.ContainsFunc(by, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) {
		return "", apperr.Param(fmt.Sprintf("by: the operator's name, 1 to %d printable characters", maxByLen))
	}
	return by, nil
}

// recordedBy is the name kept with a decision: the operator's, and the
// invocation's request id. A direct invocation does not tell the function
// who called it (Lambda's context carries no IAM identity), and By is
// whatever the caller wrote; the request id is what ties the decision to
// CloudTrail's record of the Invoke call, which names the IAM principal.
func recordedBy(by, requestID string) string {
	if requestID == "" {
		return by
	}
	return by + " [aws " + requestID + "]"
}

// run dispatches an action; by is the recorded name of a mutating one.
func (o *ops) run(ctx context.Context, r Request, by string) (any, error) {
	if result, ok, err := o.runEarn(ctx, r); ok {
		return result, err
	}
	switch r.Op {
	case "kyc.list":
		status := r.Status
		if status == "" {
			status = kyc.Pending.String()
		}
		s, ok := kyc.ParseStatus(status)
		if !ok {
			return nil, apperr.Param("status: pending, rejected, verified or unverified")
		}
		list, err := o.kyc.List(ctx, s, 500)
		if err != nil {
			return nil, err
		}
		out := make([]applicantView, len(list))
		for i, a := range list {
			out[i] = viewApplicant(a)
		}
		return out, nil
	case "kyc.show":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		a, found, err := o.kyc.Show(ctx, r.UID)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, apperr.New(apperr.CodeKYCUserUnknown, r.UID)
		}
		hist, err := o.kyc.History(ctx, r.UID)
		if err != nil {
			return nil, err
		}
		return map[string]any{"applicant": viewApplicant(a), "history": hist}, nil
	case "kyc.approve", "kyc.reject":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		d := kyc.Decision{Level: r.Level, Reason: r.Reason, Note: r.Note, By: by, RejectType: strings.ToUpper(strings.TrimSpace(r.RejectType)),
			RejectLabels: r.Labels}
		var a kyc.Applicant
		var err error
		if r.Op == "kyc.approve" {
			a, err = o.kyc.Approve(ctx, r.UID, d)
		} else {
			a, err = o.kyc.Reject(ctx, r.UID, d)
		}
		if err != nil {
			return nil, err
		}
		return viewApplicant(a), nil
	case "corporate.list":
		status := r.Status
		if status == "" {
			status = corporate.StatusPending
		}
		if !slices.Contains(corporate.Statuses, status) {
			return nil, apperr.Param("status: " + strings.Join(corporate.Statuses, ", "))
		}
		list, err := o.corporate.List(ctx, status)
		if err != nil {
			return nil, err
		}
		out := make([]corporateSummary, len(list))
		for i, a := range list {
			out[i] = summarize(a)
		}
		return out, nil
	case "corporate.show":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		return o.corporate.Application(ctx, r.UID)
	case "corporate.approve":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		return o.corporate.Approve(ctx, r.UID, by)
	case "corporate.reject":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		return o.corporate.Reject(ctx, r.UID, by, r.Reasons)
	case "support.list":
		status := r.Status
		switch status {
		case "":
			status = support.StatusOpen
		case "all":
			status = ""
		}
		list, err := o.support.Queue(ctx, status)
		if err != nil {
			return nil, err
		}
		out := make([]ticketView, len(list))
		for i, t := range list {
			out[i] = ticketView{Ticket: t, UID: t.UID}
		}
		return out, nil
	case "support.show":
		d, err := o.support.Show(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		return viewDetail(d), nil
	case "support.reply":
		d, err := o.support.Answer(ctx, r.ID, by, r.Text)
		if err != nil {
			return nil, err
		}
		return viewDetail(d), nil
	case "support.close":
		if err := o.support.Close(ctx, r.ID, by); err != nil {
			return nil, err
		}
		d, err := o.support.Show(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		return viewDetail(d), nil
	case "account.review":
		return o.account.Review(ctx, !r.All)
	case "account.show":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		return o.account.Show(ctx, r.UID)
	case "account.reopen":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		if err := o.account.ReopenAs(ctx, r.UID, by, r.Note); err != nil {
			return nil, err
		}
		return o.account.Show(ctx, r.UID)
	case "p2p.appeals":
		return o.p2p.Appeals(ctx)
	case "p2p.show":
		if err := need("id", r.ID); err != nil {
			return nil, err
		}
		ord, err := o.p2p.OrderForOperator(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		chat, err := o.p2p.OperatorMessages(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		return p2pView{Order: ord, Chat: chat}, nil
	case "p2p.decide":
		if err := need("id", r.ID); err != nil {
			return nil, err
		}
		return o.p2p.Decide(ctx, r.ID, r.Outcome, by, r.Note)
	case "p2p.merchant":
		if err := need("uid", r.UID); err != nil {
			return nil, err
		}
		if err := o.p2p.DecideMerchant(ctx, r.UID, by, r.Approve); err != nil {
			return nil, err
		}
		return o.p2p.Stats(ctx, r.UID)
	case "competition.put":
		if r.Competition == nil {
			return nil, apperr.Param("competition: required")
		}
		c, _, err := o.comp.Put(ctx, *r.Competition)
		return c, err
	case "competition.list":
		return o.comp.List(ctx)
	case "competition.show":
		if err := need("id", r.ID); err != nil {
			return nil, err
		}
		c, err := o.comp.Get(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		ranks, err := o.comp.OperatorRanks(ctx, c.ID, 100)
		if err != nil {
			return nil, err
		}
		win, finalAt, _, err := o.comp.Winners(ctx, c.ID)
		return competitionShow{Competition: c, Ranks: ranks, Winners: win, FinalAt: finalAt}, err
	case "":
		return nil, apperr.Param("op: required (kyc.list, corporate.approve, support.reply ...)")
	}
	return nil, apperr.Param("op: unknown operation " + clip(r.Op, 64))
}

// p2pView is an order in appeal with its whole chat, as an operator reads it.
type p2pView struct {
	Order p2p.Order     `json:"order"`
	Chat  []p2p.Message `json:"chat"`
}

// need refuses an empty argument.
func need(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return apperr.Param(field + ": required")
	}
	return nil
}

// applicantView is a verification applicant as an operator sees it: with
// its status and the reviewer's comment for operators, which the user's
// answers leave out.
type applicantView struct {
	kyc.Applicant
	Status        string `json:"status"`
	ClientComment string `json:"clientComment,omitempty"`
}

func viewApplicant(a kyc.Applicant) applicantView {
	return applicantView{Applicant: a, Status: a.Status().String(), ClientComment: a.ClientComment}
}

// corporateSummary is one application of the review queue, as `tenger
// corporate list` shows it.
type corporateSummary struct {
	UID                string `json:"uid"`
	Status             string `json:"status"`
	StatusAt           int64  `json:"statusAt"`
	EntityName         string `json:"entityName"`
	RegistrationNumber string `json:"registrationNumber"`
	Country            string `json:"registeredCountry"`
	People             int    `json:"people"`
	Files              int    `json:"files"`
}

func summarize(a corporate.Application) corporateSummary {
	s := corporateSummary{UID: a.UserID, Status: a.Status, StatusAt: a.StatusAt}
	if c := a.Company; c != nil {
		s.EntityName, s.RegistrationNumber, s.Country = c.EntityName, c.RegistrationNumber, c.RegisteredCountry
	}
	if a.People != nil {
		s.People = len(a.People.People)
	}
	if a.Documents != nil {
		s.Files = len(a.Documents.Files)
	}
	return s
}

// ticketView is a ticket with its owner, which the user's answers leave
// out.
type ticketView struct {
	support.Ticket
	UID string `json:"uid"`
}

// messageView is a message with the operator who wrote it.
type messageView struct {
	support.Message
	Operator string `json:"operator,omitempty"`
}

// detailView is a ticket with its owner and its thread.
type detailView struct {
	ticketView
	Thread []messageView `json:"thread"`
}

func viewDetail(d support.Detail) detailView {
	out := detailView{ticketView: ticketView{Ticket: d.Ticket, UID: d.UID}, Thread: make([]messageView, len(d.Thread))}
	for i, m := range d.Thread {
		out.Thread[i] = messageView{Message: m, Operator: m.Operator}
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

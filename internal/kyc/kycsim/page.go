package kycsim

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"tenger/internal/apperr"
	"tenger/internal/kyc"
)

// Field formats of the form. Names are letters (any script: Mongolian
// names are Cyrillic), spaces, hyphens and apostrophes.
var (
	countryCode = regexp.MustCompile(`^[A-Z]{3}$`)
	docNumber   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9\-]{3,31}$`)
	uploadID    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,127}$`)
)

func validName(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 64 {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' && r != '\'' {
			return false
		}
	}
	return true
}

// check validates and normalises a submission: names trimmed, the date
// of birth a real day in the past, the country ISO 3166-1 alpha-3 (as
// Sumsub reports it), a document number and an upload id.
func (sub *Submission) check(now time.Time) error {
	sub.FirstName, sub.LastName = strings.TrimSpace(sub.FirstName), strings.TrimSpace(sub.LastName)
	sub.Country = strings.ToUpper(strings.TrimSpace(sub.Country))
	sub.DOB, sub.DocNumber, sub.UploadID = strings.TrimSpace(sub.DOB), strings.TrimSpace(sub.DocNumber), strings.TrimSpace(sub.UploadID)
	switch {
	case !validName(sub.FirstName):
		return apperr.New(apperr.CodeKYCFormField, "firstName")
	case !validName(sub.LastName):
		return apperr.New(apperr.CodeKYCFormField, "lastName")
	case !countryCode.MatchString(sub.Country):
		return apperr.New(apperr.CodeKYCFormField, "country")
	case !docNumber.MatchString(sub.DocNumber):
		return apperr.New(apperr.CodeKYCFormField, "idDocNumber")
	case !uploadID.MatchString(sub.UploadID):
		return apperr.New(apperr.CodeKYCFormField, "uploadId")
	}
	dob, err := time.Parse("2006-01-02", sub.DOB)
	if err != nil || !dob.Before(now) || dob.Year() < 1900 {
		return apperr.New(apperr.CodeKYCFormField, "dob")
	}
	return nil
}

var page = template.Must(template.New("kyc").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Verification simulator</title>
<style>body{font-family:system-ui,sans-serif;max-width:38rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.7rem 0 .2rem}input,select{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}
button{font-size:1rem;padding:.6rem 1.4rem;margin:.8rem .8rem 0 0;border-radius:.4rem;border:1px solid #888;cursor:pointer}
.ok{background:#16a34a;color:#fff}.no{background:#dc2626;color:#fff}.err{color:#b91c1c}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{color:#555}
fieldset{margin-top:2rem;border:1px dashed #999}</style></head>
<body><h1>Verification simulator</h1>
<p>This page stands in for the verification provider's flow (Sumsub's WebSDK) in <code>tenger serve --dev</code>.</p>
{{if .Error}}<p class="err" id="error">{{.Error}}</p>{{end}}
{{if .A.ID}}<dl><dt>Applicant</dt><dd id="applicant">{{.A.ID}}</dd><dt>Level</dt><dd id="level">{{.A.ProviderLevel}}</dd>
<dt>Status</dt><dd id="status">{{.A.ReviewStatus}}{{if .A.Answer}} ({{.A.Answer}}{{if .A.RejectType}}, {{.A.RejectType}}{{end}}){{end}}</dd>
{{if .A.Moderation}}<dt>Reviewer</dt><dd id="reason">{{.A.Moderation}}</dd>{{end}}
{{if .A.RejectLabels}}<dt>Labels</dt><dd id="labels">{{range .A.RejectLabels}}{{.}} {{end}}</dd>{{end}}</dl>{{end}}
{{if .CanSubmit}}<form method="post" action="/dev/kyc/submit" id="submit-form">
<input type="hidden" name="accessToken" value="{{.Token}}">
<label for="firstName">First name</label><input id="firstName" name="firstName" value="{{.A.FirstName}}" required>
<label for="lastName">Last name</label><input id="lastName" name="lastName" value="{{.A.LastName}}" required>
<label for="dob">Date of birth</label><input id="dob" name="dob" type="date" value="{{.A.DOB}}" required>
<label for="country">Country (ISO alpha-3, e.g. MNG)</label><input id="country" name="country" value="{{if .A.Country}}{{.A.Country}}{{else}}MNG{{end}}" maxlength="3" required>
<label for="idDocNumber">Document number</label><input id="idDocNumber" name="idDocNumber" value="{{.A.DocNumber}}" required>
<label for="uploadId">Document image (upload id from /fe-ex-api/common/upload_img_auth?imageType=2)</label><input id="uploadId" name="uploadId" required>
<button class="ok" type="submit">Send for review</button></form>{{end}}
{{if .CanReview}}<fieldset><legend>Reviewer (the provider's staff)</legend>
<form method="post" action="/dev/kyc/review/form"><input type="hidden" name="accessToken" value="{{.Token}}">
<label for="comment">Comment for the user (RED)</label><input id="comment" name="moderationComment">
<label for="labels-in">Reject labels, comma separated (RED)</label><input id="labels-in" name="rejectLabels" value="UNSATISFACTORY_PHOTOS">
<button class="ok" name="answer" value="GREEN" type="submit">Approve (GREEN)</button>
<button class="no" name="answer" value="RED_RETRY" type="submit">Reject, may retry</button>
<button class="no" name="answer" value="RED_FINAL" type="submit">Reject for good</button></form></fieldset>{{end}}
</body></html>`))

type pageData struct {
	Token                string
	A                    Applicant
	Error                string
	CanSubmit, CanReview bool
}

// lang is the caller's language (the web app's lan cookie).
func lang(r *http.Request) string {
	if ck, err := r.Cookie("lan"); err == nil && ck.Value == apperr.LangMN {
		return apperr.LangMN
	}
	return apperr.LangEN
}

// render shows the page of the applicant the token names, with an error
// (its catalogue message) when given.
func (s *Sim) render(w http.ResponseWriter, r *http.Request, token string, shown error) {
	d := pageData{Token: token}
	status := http.StatusOK
	uid, err := s.userOfToken(r.Context(), token)
	if err == nil {
		d.A, err = s.Applicant(r.Context(), uid)
	}
	if err != nil {
		shown, status = err, http.StatusNotFound
		if !errors.As(err, new(*apperr.Error)) {
			shown = apperr.New(apperr.CodeKYCTokenInvalid)
		}
	} else {
		d.CanSubmit = d.A.ReviewStatus == kyc.ReviewInit || (d.A.ReviewStatus == kyc.ReviewCompleted && d.A.Answer == kyc.AnswerRed &&
			d.A.RejectType != kyc.RejectFinal)
		d.CanReview = d.A.Submitted > 0 && d.A.ReviewStatus != kyc.ReviewInit
	}
	if shown != nil {
		d.Error = apperr.As(shown).Message(lang(r))
		if status == http.StatusOK {
			status = http.StatusBadRequest
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = page.Execute(w, d)
}

// ServePage is GET /dev/kyc?accessToken=: the user's form, the review's
// state, and the reviewer's buttons once documents were sent.
func (s *Sim) ServePage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, r.URL.Query().Get("accessToken"), nil)
}

// back sends the browser to the page again (303 after a form post).
func back(w http.ResponseWriter, r *http.Request, token string) {
	http.Redirect(w, r, PagePath+"?accessToken="+url.QueryEscape(token), http.StatusSeeOther)
}

// formLimit bounds the forms' bodies.
const formLimit = 16 << 10

// ServeSubmit is POST /dev/kyc/submit (the page's form): the documents go
// for review and applicantPending is sent.
func (s *Sim) ServeSubmit(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, formLimit)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	f := r.PostForm
	token := f.Get("accessToken")
	_, err := s.Submit(r.Context(), token, Submission{FirstName: f.Get("firstName"), LastName: f.Get("lastName"), DOB: f.Get("dob"),
		Country: f.Get("country"), DocNumber: f.Get("idDocNumber"), UploadID: f.Get("uploadId")})
	if err != nil {
		s.render(w, r, token, err)
		return
	}
	back(w, r, token)
}

// ServeReviewForm is POST /dev/kyc/review/form (the page's reviewer
// buttons: answer GREEN, RED_RETRY or RED_FINAL).
func (s *Sim) ServeReviewForm(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, formLimit)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	f := r.PostForm
	token := f.Get("accessToken")
	uid, err := s.userOfToken(r.Context(), token)
	if err != nil {
		s.render(w, r, token, err)
		return
	}
	in := ReviewInput{UserID: uid, ModerationComment: strings.TrimSpace(f.Get("moderationComment"))}
	switch f.Get("answer") {
	case kyc.AnswerGreen:
		in.Answer = kyc.AnswerGreen
	case "RED_RETRY":
		in.Answer, in.RejectType = kyc.AnswerRed, kyc.RejectRetry
	case "RED_FINAL":
		in.Answer, in.RejectType = kyc.AnswerRed, kyc.RejectFinal
	default:
		s.render(w, r, token, apperr.New(apperr.CodeKYCFormField, "answer"))
		return
	}
	for _, l := range strings.Split(f.Get("rejectLabels"), ",") {
		if l = strings.TrimSpace(l); l != "" {
			in.RejectLabels = append(in.RejectLabels, l)
		}
	}
	if _, err := s.Review(r.Context(), in); err != nil {
		s.render(w, r, token, err)
		return
	}
	back(w, r, token)
}

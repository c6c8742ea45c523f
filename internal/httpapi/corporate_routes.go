package httpapi

import (
	"fmt"

	"tenger/internal/apperr"
	"tenger/internal/corporate"
)

// Corporate verification (spec §2 "corporate verification (general plus
// steps 1 to 5)", §3 the step 2 form, §6 enterprise accounts, §7 "get and
// save base info, status, file upload, attachment, company user,
// confirmSubmit"). Served by the profile area. Files are uploaded first
// through the upload service (/fe-ex-api/common/upload_img_auth), whose
// ids /company/attachment attaches to step 4.

// Paths of the corporate verification calls.
const (
	PathCorpGetBaseInfo  = "/fe-ex-api/company/get_base_info"
	PathCorpSaveBaseInfo = "/fe-ex-api/company/save_base_info"
	PathCorpStatus       = "/fe-ex-api/company/status"
	PathCorpCompanyUser  = "/fe-ex-api/company/company_user"
	PathCorpAttachment   = "/fe-ex-api/company/attachment"
	PathCorpConfirm      = "/fe-ex-api/company/confirmSubmit"
	PathCorpToRegular    = "/fe-ex-api/company/change_to_regular"
)

// CorpSaveReq is save_base_info: step 1, 2 or 5, in the object named for
// the step.
type CorpSaveReq struct {
	Step          FlexInt                  `json:"step" v:"required" doc:"1 (applicant), 2 (company) or 5 (questionnaire); step 3 is saved with /company/company_user and step 4 with /company/attachment"`
	Applicant     *corporate.Applicant     `json:"applicant" doc:"step 1: the applicant, and the business address when step 2's businessAddressSame is false"`
	Company       *corporate.Company       `json:"company" doc:"step 2: the spec's step 2 form"`
	Questionnaire *corporate.Questionnaire `json:"questionnaire" doc:"step 5: expected volume, purpose, PEP and sanctions declarations, confirmation"`
}

// Validate checks that the step and its object agree: the object of the
// step, and no other, so a step is never saved from the wrong form.
func (r *CorpSaveReq) Validate() error {
	objects := []struct {
		step  int64
		name  string
		given bool
	}{
		{corporate.StepApplicant, "applicant", r.Applicant != nil},
		{corporate.StepCompany, "company", r.Company != nil},
		{corporate.StepQuestionnaire, "questionnaire", r.Questionnaire != nil},
	}
	switch r.Step.V {
	case corporate.StepPeople:
		return apperr.New(apperr.CodeCorpStepRoute, r.Step.V, PathCorpCompanyUser)
	case corporate.StepDocuments:
		return apperr.New(apperr.CodeCorpStepRoute, r.Step.V, PathCorpAttachment)
	case corporate.StepApplicant, corporate.StepCompany, corporate.StepQuestionnaire:
	default:
		return apperr.Param("step: 1, 2 or 5")
	}
	for _, o := range objects {
		switch {
		case o.step == r.Step.V && !o.given:
			return apperr.New(apperr.CodeCorpRequired, o.name)
		case o.step != r.Step.V && o.given:
			return apperr.Param(fmt.Sprintf("%s: goes with step %d, not %d", o.name, o.step, r.Step.V))
		}
	}
	return nil
}

// CorpCompanyUserReq is company_user: step 3, the whole list of people.
type CorpCompanyUserReq struct {
	corporate.People
}

// CorpAttachmentReq is attachment: step 4, the whole list of files.
type CorpAttachmentReq struct {
	corporate.Documents
}

// NewCorporateRouter serves corporate verification.
func NewCorporateRouter(svc *corporate.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "profile"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "corporate-verification"} }
	Handle(r, PathCorpGetBaseInfo, priv("The user's corporate verification application: every step saved, the state, and what a submit still needs (status none before the first save)"),
		func(c *Call, _ *Empty) (corporate.View, error) { return svc.Get(c.Ctx, c.Principal.UserID) })
	Handle(r, PathCorpSaveBaseInfo, priv("Save step 1, 2 or 5 as a draft (blank fields allowed, bad ones refused); refused while the application is pending or approved"),
		func(c *Call, req *CorpSaveReq) (corporate.View, error) {
			uid := c.Principal.UserID
			switch req.Step.V {
			case corporate.StepApplicant:
				return svc.SaveApplicant(c.Ctx, uid, *req.Applicant)
			case corporate.StepCompany:
				return svc.SaveCompany(c.Ctx, uid, *req.Company)
			default:
				return svc.SaveQuestionnaire(c.Ctx, uid, *req.Questionnaire)
			}
		})
	Handle(r, PathCorpStatus, priv("Where the application stands: state, account type, rejection reasons, each step's progress"),
		func(c *Call, _ *Empty) (corporate.Status, error) { return svc.GetStatus(c.Ctx, c.Principal.UserID) })
	Handle(r, PathCorpCompanyUser, priv("Save step 3, representatives and beneficial owners: the list replaces the step's; people keep their ids when sent back with them"),
		func(c *Call, req *CorpCompanyUserReq) (corporate.View, error) {
			return svc.SavePeople(c.Ctx, c.Principal.UserID, req.People)
		})
	Handle(r, PathCorpAttachment, priv("Save step 4: attach uploaded files (upload ids from /fe-ex-api/common/upload_img_auth); the list replaces the step's"),
		func(c *Call, req *CorpAttachmentReq) (corporate.View, error) {
			return svc.SaveDocuments(c.Ctx, c.Principal.UserID, req.Documents)
		})
	Handle(r, PathCorpConfirm, priv("Submit the application for review: every step complete, else code 16322 with data.missing listing each missing field by step"),
		func(c *Call, _ *Empty) (corporate.View, error) { return svc.Submit(c.Ctx, c.Principal.UserID) })
	Handle(r, PathCorpToRegular, priv("Change an enterprise account back to a regular one; an approved application returns to draft, and enterprise again takes a new review"),
		func(c *Call, _ *Empty) (corporate.Status, error) {
			return svc.ChangeToRegular(c.Ctx, c.Principal.UserID)
		})
	return r
}

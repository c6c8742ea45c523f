package httpapi

import (
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/support"
)

// Support tickets (spec §7: question/*), served by the profile area. The
// spec names create_problem, details_problem and reply_create; the user's
// list is problem_list, beside them.

// TicketCreateReq is create_problem.
type TicketCreateReq struct {
	Type        string   `json:"type" v:"required" doc:"account, security, deposit, withdrawal, trading, verification, api or other"`
	Title       string   `json:"title" v:"required" doc:"1-100 characters"`
	Description string   `json:"description" v:"required" doc:"1-2000 characters"`
	Attachments []string `json:"attachments" doc:"upload ids of the caller's own files (common/upload_img), at most 5"`
}

// Validate bounds the fields before the domain's rules apply.
func (r *TicketCreateReq) Validate() error {
	if len(r.Type) > 32 {
		return apperr.New(apperr.CodeTicketType, r.Type)
	}
	if len(r.Title) > 4*support.MaxTitleLen {
		return apperr.New(apperr.CodeTicketTitle, support.MaxTitleLen)
	}
	if len(r.Description) > 4*support.MaxTextLen {
		return apperr.New(apperr.CodeTicketText, support.MaxTextLen)
	}
	return checkAttachmentIDs(r.Attachments)
}

// TicketIDReq names a ticket.
type TicketIDReq struct {
	ID string `json:"id" v:"required" doc:"the ticket id create_problem answered"`
}

// Validate bounds the id (a longer one is no ticket's).
func (r *TicketIDReq) Validate() error {
	if len(r.ID) > 64 {
		return apperr.New(apperr.CodeTicketNotFound)
	}
	return nil
}

// TicketReplyReq is reply_create.
type TicketReplyReq struct {
	ID          string   `json:"id" v:"required"`
	Content     string   `json:"content" v:"required" doc:"1-2000 characters"`
	Attachments []string `json:"attachments" doc:"upload ids of the caller's own files, at most 5"`
}

// Validate bounds the fields.
func (r *TicketReplyReq) Validate() error {
	if len(r.ID) > 64 {
		return apperr.New(apperr.CodeTicketNotFound)
	}
	if len(r.Content) > 4*support.MaxTextLen {
		return apperr.New(apperr.CodeTicketText, support.MaxTextLen)
	}
	return checkAttachmentIDs(r.Attachments)
}

func checkAttachmentIDs(ids []string) error {
	if len(ids) > 2*support.MaxAttachments {
		return apperr.New(apperr.CodeTicketAttachments, support.MaxAttachments)
	}
	for _, id := range ids {
		if len(id) > 128 {
			return apperr.New(apperr.CodeTicketAttachment)
		}
	}
	return nil
}

// TicketListReq pages the caller's tickets.
type TicketListReq struct {
	Status   string  `json:"status" doc:"open, answered or closed; empty for all"`
	Page     FlexInt `json:"page" doc:"1-based, default 1"`
	PageSize FlexInt `json:"pageSize" doc:"1-50, default 10"`
}

// Validate checks the paging and the status.
func (r *TicketListReq) Validate() error {
	if len(r.Status) > 16 {
		return apperr.New(apperr.CodeTicketStatus, strings.TrimSpace(r.Status))
	}
	return checkPaging(r.Page, r.PageSize, support.MaxPageSize)
}

// TicketList is problem_list's answer.
type TicketList struct {
	Count int              `json:"count" doc:"tickets matching in all"`
	List  []support.Ticket `json:"list" doc:"newest first"`
}

// TicketTypes is problem_types' answer.
type TicketTypes struct {
	Types          []string `json:"types"`
	MaxTitle       int      `json:"maxTitle"`
	MaxText        int      `json:"maxText"`
	MaxAttachments int      `json:"maxAttachments"`
	PerDay         int      `json:"perDay" doc:"tickets a user may open per day"`
}

// NewSupportRouter serves the support ticket calls.
func NewSupportRouter(svc *support.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "profile"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "support"} }
	Handle(r, "/fe-ex-api/question/problem_types", RouteOpts{Summary: "The ticket types and limits", Tag: "support"},
		func(c *Call, _ *Empty) (TicketTypes, error) {
			return TicketTypes{Types: support.Types, MaxTitle: support.MaxTitleLen, MaxText: support.MaxTextLen,
				MaxAttachments: support.MaxAttachments, PerDay: support.TicketsPerDay}, nil
		})
	Handle(r, "/fe-ex-api/question/create_problem", priv("Open a support ticket (at most 5 a day); answers it with its thread"),
		func(c *Call, req *TicketCreateReq) (support.Detail, error) {
			return svc.Create(c.Ctx, c.Principal.UserID, support.NewTicket{Type: req.Type, Title: req.Title,
				Description: req.Description, Attachments: req.Attachments})
		})
	Handle(r, "/fe-ex-api/question/details_problem", priv("One of the caller's tickets with its thread, oldest message first"),
		func(c *Call, req *TicketIDReq) (support.Detail, error) {
			return svc.Get(c.Ctx, c.Principal.UserID, req.ID)
		})
	Handle(r, "/fe-ex-api/question/reply_create", priv("Add the caller's message to their ticket (an answered ticket is open again; a closed one takes none)"),
		func(c *Call, req *TicketReplyReq) (support.Detail, error) {
			return svc.Reply(c.Ctx, c.Principal.UserID, req.ID, req.Content, req.Attachments)
		})
	Handle(r, "/fe-ex-api/question/problem_list", priv("The caller's tickets, newest first"),
		func(c *Call, req *TicketListReq) (TicketList, error) {
			list, n, err := svc.List(c.Ctx, c.Principal.UserID, support.ListFilter{Status: req.Status,
				Page: int(req.Page.V), PageSize: int(req.PageSize.V)})
			if list == nil {
				list = []support.Ticket{}
			}
			return TicketList{Count: n, List: list}, err
		})
	return r
}

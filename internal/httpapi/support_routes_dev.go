package httpapi

import (
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/support"
)

// Dev support routes (mounted only with --dev): the operator's side of the
// help desk while `tenger serve --dev` holds the data directory, where the
// CLI (`tenger support reply`, which needs the store to itself) cannot
// run. They call what the CLI calls, so a browser journey sees an
// operator's answer exactly as the CLI would give it.

// DevOperator is the operator name kept on answers given through the dev
// routes when the request names none.
const DevOperator = "dev"

// DevSupportReplyReq is an operator's answer to a ticket.
type DevSupportReplyReq struct {
	ID       string `json:"id" v:"required" doc:"the ticket id"`
	Content  string `json:"content" v:"required" doc:"the answer, 1-2000 characters"`
	Operator string `json:"operator" doc:"the operator's name kept on the ticket (default dev)"`
}

// Validate bounds the fields before the domain's rules apply.
func (r *DevSupportReplyReq) Validate() error {
	if len(r.ID) > 64 {
		return apperr.New(apperr.CodeTicketNotFound)
	}
	if len(r.Content) > 4*support.MaxTextLen {
		return apperr.New(apperr.CodeTicketText, support.MaxTextLen)
	}
	if len(r.Operator) > 256 {
		return apperr.Param("operator: too long")
	}
	return nil
}

// DevSupportCloseReq closes a ticket.
type DevSupportCloseReq struct {
	ID       string `json:"id" v:"required" doc:"the ticket id"`
	Operator string `json:"operator" doc:"the operator's name kept on the ticket (default dev)"`
}

// Validate bounds the fields.
func (r *DevSupportCloseReq) Validate() error {
	if len(r.ID) > 64 {
		return apperr.New(apperr.CodeTicketNotFound)
	}
	if len(r.Operator) > 256 {
		return apperr.Param("operator: too long")
	}
	return nil
}

// DevSupportClosed is the answer of a closed ticket.
type DevSupportClosed struct {
	ID     string `json:"id"`
	Status string `json:"status" doc:"closed"`
}

func devOperator(name string) string {
	if name = strings.TrimSpace(name); name != "" {
		return name
	}
	return DevOperator
}

// NewDevSupportRouter serves the operator's answer and close of a ticket.
func NewDevSupportRouter(svc *support.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "dev-support"
	}
	r := NewRouter(opts)
	dev := func(s string) RouteOpts { return RouteOpts{Summary: s + " (--dev only)", Auth: Public, Tag: "dev"} }
	Handle(r, "/dev/support/reply", dev("Help desk: an operator answers a ticket, as `tenger support reply` does; it becomes answered and its owner is told"),
		func(c *Call, req *DevSupportReplyReq) (support.Detail, error) {
			return svc.Answer(c.Ctx, strings.TrimSpace(req.ID), devOperator(req.Operator), req.Content)
		})
	Handle(r, "/dev/support/close", dev("Help desk: an operator closes a ticket, as `tenger support close` does; nobody may add to it any more"),
		func(c *Call, req *DevSupportCloseReq) (DevSupportClosed, error) {
			id := strings.TrimSpace(req.ID)
			if err := svc.Close(c.Ctx, id, devOperator(req.Operator)); err != nil {
				return DevSupportClosed{}, err
			}
			return DevSupportClosed{ID: id, Status: support.StatusClosed}, nil
		})
	return r
}

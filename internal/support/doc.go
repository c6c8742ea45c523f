// Package support is the help desk: a user opens a ticket (a type, a
// title, a description and optional attachments), reads it with its
// replies, adds replies and lists their tickets; support staff answer
// and close tickets from the operator's command line (`tenger support`).
//
// # States
//
//	open      waiting for support: a new ticket, or one the user replied to
//	answered  support replied; waiting for the user
//	closed    done: support closed it; nobody may add to it (a new ticket
//	          is opened instead)
//
// # Who sees what
//
// Every user call names its caller, and a ticket is answered only to the
// user who opened it: another user's ticket id answers CodeTicketNotFound,
// as an id that does not exist does, so ids reveal nothing.
//
// # Limits
//
// Titles of at most MaxTitleLen characters, messages of at most
// MaxTextLen, at most MaxAttachments attachments per message, at most
// MaxMessages messages per ticket, and at most TicketsPerDay new tickets
// per user per day (a fixed-window count in the store, package ratelimit,
// so it holds across every process). Attachments are upload ids the user
// owns (Attachments checks them: internal/upload's service); where no
// upload service is wired, a message with attachments is refused rather
// than stored with ids nobody checked.
//
// # Item layout
//
//	pk              sk             what
//	TICKET#<id>     T              the ticket: id, uid, type, title, status, created, updated (ms),
//	                               msgs (messages so far), lastBy (user|support);
//	                               gsi1 "TICKETS#<uid>" / "<created 13d>#<id>" (the user's list),
//	                               gsi2 "TICKETQ#<status>" / "<updated 13d>#<id>" (the operator's queue)
//	TICKET#<id>     M#<seq 4d>     one message: seq, by (user|support), operator, text, att (upload ids), at
//
// A ticket and its first message are written in one transaction; a reply
// adds its message and moves the ticket (status, msgs, updated) in one
// transaction conditioned on the count read, so concurrent replies never
// share a sequence number and a closed ticket takes none.
package support

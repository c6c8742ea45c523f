package withdraw

// WithdrawalID is the id a submit derives from the user and its request id.
var WithdrawalID = withdrawalID

# Living with other handlers: C programs for each chaining order, handler style,
# recovery, alternate stack and thread stack (issue 14).

"""The vocabulary every layer shares: verdicts, results and steps, budgets, errors."""

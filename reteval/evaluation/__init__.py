"""Evaluation: measures, rankings, kernels and the engines that run them."""

# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# symbolizer/: symbol sources and views. Build fragment.

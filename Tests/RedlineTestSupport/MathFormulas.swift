/// TeX formulas for the math tests (`TeXParserTests`, `MathMarkdownTests`, `MathDOCXTests`).
public enum MathFormulas {
    /// Formulas people write, one of each construct the TeX parser supports.
    public static let typical = [
        "E = mc^2", "e^{i\\pi} + 1 = 0", "x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}", "\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}",
        "\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}", "\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1",
        "\\alpha \\le \\beta", "\\hat{x} + \\bar{y} + \\vec{v} + \\tilde{n} + \\dot{q}", "\\overline{z}", "x_i^2",
        "a_{ij}", "\\binom{n}{k}", "\\sqrt[3]{8} = 2", "\\prod_{k=1}^{\\infty} (1 + q^k)", "\\oint_C \\mathbf{F} \\cdot d\\mathbf{r}",
        "\\left( \\frac{a}{b} \\right)^2", "\\left[ x \\right]", "\\left\\{ x \\in \\mathbb{N} : x > 2 \\right\\}",
        "\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}", "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}",
        "\\begin{matrix} x & y \\end{matrix}", "f(x) = \\begin{cases} x^2 & x \\ge 0 \\\\ -x & \\text{otherwise} \\end{cases}",
        "\\begin{aligned} a &= b + c \\\\ d &= e \\end{aligned}", "\\nabla \\times \\mathbf{B} = \\mu_0 \\mathbf{J}",
        "\\partial_t u = \\Delta u", "\\Gamma(z) = \\int_0^\\infty t^{z-1} e^{-t} dt", "P(A \\mid B) = \\frac{P(B \\mid A) P(A)}{P(B)}",
        "\\forall x \\exists y: x < y", "a \\neq b \\approx c", "\\log_2 n", "\\max_{i} a_i", "\\cos^2 \\theta + \\sin^2 \\theta = 1",
        "\\dfrac{1}{2} + \\tfrac{1}{3}", "\\mathrm{d}x", "\\text{if } x > 0", "\\mathbb{R}^n", "A \\subseteq B \\cup C",
        "f'(x)", "\\underbrace{a + b}_{n}", "\\{ 1, 2, 3 \\}", "|x| \\le \\|y\\|", "\\Omega \\to \\infty",
    ]
}
